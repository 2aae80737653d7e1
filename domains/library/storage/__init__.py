"""The library's tables: `store` is the one module that reads and writes them."""
