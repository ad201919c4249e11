"""permitflow: intake, validation and status notices for Eastbrook building permits."""
