import sys

from rolegraph_cli.main import main

sys.exit(main())
