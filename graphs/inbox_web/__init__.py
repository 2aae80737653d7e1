"""The web approval inbox (`rolegraph inbox --serve`): app, login, pages."""
