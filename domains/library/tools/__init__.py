"""The library skills' logic; each catalog package's `executor.py` binds one of these."""
