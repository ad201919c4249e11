"""A small contact manager kept in one SQLite database."""
