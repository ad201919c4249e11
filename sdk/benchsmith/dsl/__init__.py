"""task.toml: loading, validation with source positions, and the frozen task model."""
