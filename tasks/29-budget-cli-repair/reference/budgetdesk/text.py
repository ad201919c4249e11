"""Normalizing and comparing description text."""

from __future__ import annotations

import unicodedata


def normalize_description(text: str) -> str:
    """NFKC, whitespace runs collapsed to one space, trimmed; the case is kept."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def fold(text: str) -> str:
    return text.casefold()
