"""The validation battery: controls, witnesses, determinism, isolation, hostile candidates."""
