"""Code generation: one jinja2 environment, a pure render plan, ruff formatting, atomic writes."""
