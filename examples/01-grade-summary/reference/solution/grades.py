"""Reference solution of the grade-summary example, written from TASK.md (stdlib only)."""

from __future__ import annotations

import argparse
import csv
import json
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path


def summarize(rows: list[dict[str, str]]) -> tuple[list[dict[str, str]], dict[str, list[str]]]:
    courses: dict[str, set[str]] = {}
    scores: dict[str, list[int]] = {}
    best: dict[str, tuple[int, set[str]]] = {}
    for row in rows:
        student, course, score = row["student_id"], row["course"], row["score"]
        courses.setdefault(student, set()).add(course)
        scores.setdefault(student, [])
        if not score:
            continue
        value = int(score)
        scores[student].append(value)
        top, holders = best.get(course, (-1, set()))
        if value > top:
            best[course] = (value, {student})
        elif value == top:
            holders.add(student)
    summary = []
    for student in sorted(courses):
        values = scores[student]
        average = ""
        if values:
            mean = Decimal(sum(values)) / Decimal(len(values))
            average = str(mean.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
        summary.append(
            {
                "student_id": student,
                "courses": str(len(courses[student])),
                "scored": str(len(values)),
                "average": average,
            }
        )
    top = {course: sorted(holders) for course, (_, holders) in sorted(best.items())}
    return summary, top


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("scores")
    parser.add_argument("--output", required=True)
    args = parser.parse_args()
    with open(args.scores, newline="", encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    summary, top = summarize(rows)
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "summary.csv", "w", newline="", encoding="utf-8") as stream:
        writer = csv.DictWriter(
            stream, ["student_id", "courses", "scored", "average"], lineterminator="\n"
        )
        writer.writeheader()
        writer.writerows(summary)
    (out / "top.json").write_text(json.dumps(top, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
