"""Normalizing and comparing description text."""

from __future__ import annotations


def normalize_description(text: str) -> str:
    return text.strip()


def fold(text: str) -> str:
    return text.lower()
