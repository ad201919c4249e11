"""A small contact manager kept in one SQLite database (crm.migrate, crm.import_contacts)."""
