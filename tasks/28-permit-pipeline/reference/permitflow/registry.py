"""The parcel and owner registries: matching an application's owner to the registered one."""

import unicodedata


def name_key(name):
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def owner_matches(stated, registered):
    """Whether the owner named on an application is the registered owner (TASK.md)."""
    return name_key(stated) == name_key(registered)
