"""WAV interview cleanup and chapters (reference solution).

python -m solution.audio_chapters RECORDING.wav TRANSCRIPT.csv --output DIR

Writes DIR/<recording stem>/clean.wav, chapters/NN.wav, chapters.json and speaker_time.csv.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import struct
import wave
from decimal import Decimal
from pathlib import Path

THRESHOLD = 500
SILENCE_TENTHS = 12  # 1.2 seconds, in tenths of a second
EARLIEST, TARGET, LATEST = 8 * 60, 10 * 60, 12 * 60  # seconds after the previous boundary


def read_wav(path: Path) -> tuple[wave._wave_params, bytes]:
    with wave.open(str(path), "rb") as wav:
        params = wav.getparams()
        frames = wav.readframes(params.nframes)
    return params, frames


def quiet_frames(frames: bytes, channels: int) -> list[bool]:
    """Per frame: every channel's sample is below the threshold in absolute value."""
    quiet = [abs(s) < THRESHOLD for (s,) in struct.iter_unpack("<h", frames)]
    return [all(quiet[i : i + channels]) for i in range(0, len(quiet), channels)]


def silences(quiet: list[bool], rate: int) -> list[tuple[int, int]]:
    """(first, end) of every run of quiet frames lasting at least 1.2 s; end exclusive."""
    found = []
    start = None
    for i, q in enumerate([*quiet, False]):
        if q and start is None:
            start = i
        elif not q and start is not None:
            if (i - start) * 10 >= SILENCE_TENTHS * rate:
                found.append((start, i))
            start = None
    return found


def choose_cuts(runs: list[tuple[int, int]], total: int, rate: int) -> list[int]:
    midpoints = [(first + end) // 2 for first, end in runs]
    cuts = []
    boundary = 0
    while True:
        low, high = boundary + EARLIEST * rate, boundary + LATEST * rate
        target = boundary + TARGET * rate
        candidates = [m for m in midpoints if low <= m <= high]
        if candidates:
            cut = min(candidates, key=lambda m: (abs(m - target), m))
        elif high < total:
            cut = high
        else:
            return cuts
        cuts.append(cut)
        boundary = cut


def write_wav(path: Path, params: wave._wave_params, frames: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(params.nchannels)
        out.setsampwidth(params.sampwidth)
        out.setframerate(params.framerate)
        out.writeframes(frames)


def seconds(frames: int, rate: int) -> float:
    """Frames as seconds (a JSON number; exact at these sample rates)."""
    return frames / rate


def speaker_time(transcript: Path, lead: Decimal, duration: Decimal) -> dict[str, Decimal]:
    totals: dict[str, Decimal] = {}
    with transcript.open(encoding="utf-8", newline="") as stream:
        for row in csv.DictReader(stream):
            start = min(max(Decimal(row["start"]) - lead, Decimal(0)), duration)
            end = min(max(Decimal(row["end"]) - lead, Decimal(0)), duration)
            totals[row["speaker"]] = totals.get(row["speaker"], Decimal(0)) + end - start
    return totals


def process(recording: Path, transcript: Path, output: Path) -> None:
    params, data = read_wav(recording)
    rate, width = params.framerate, params.nchannels * params.sampwidth
    total = len(data) // width
    quiet = quiet_frames(data, params.nchannels)
    runs = silences(quiet, rate)
    lead = next((end for first, end in runs if first == 0), 0)
    tail_start = next((first for first, end in runs if end == total), total)
    tail_start = max(tail_start, lead)
    clean = data[lead * width : tail_start * width]
    clean_frames = tail_start - lead
    # the clean audio starts and ends with a loud frame: its silences are all inside it
    cuts = choose_cuts(silences(quiet[lead:tail_start], rate), clean_frames, rate)

    out = output / recording.stem
    write_wav(out / "clean.wav", params, clean)
    edges = [0, *cuts, clean_frames] if clean_frames else []
    chapters = []
    for number, (start, end) in enumerate(itertools.pairwise(edges), 1):
        name = f"chapters/{number:02d}.wav"
        write_wav(out / name, params, clean[start * width : end * width])
        chapters.append(
            {
                "number": number,
                "file": name,
                "start_frame": start,
                "end_frame": end,
                "start_seconds": seconds(start, rate),
                "end_seconds": seconds(end, rate),
            }
        )
    summary = {
        "sample_rate": rate,
        "channels": params.nchannels,
        "sample_width": params.sampwidth,
        "leading_trim_frames": lead,
        "trailing_trim_frames": total - tail_start,
        "clean_frames": clean_frames,
        "chapters": chapters,
    }
    (out / "chapters.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")

    totals = speaker_time(
        transcript, Decimal(lead) / Decimal(rate), Decimal(clean_frames) / Decimal(rate)
    )
    with (out / "speaker_time.csv").open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(["speaker", "seconds"])
        for speaker in sorted(totals):
            writer.writerow([speaker, f"{totals[speaker]:.3f}"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("recording", type=Path)
    parser.add_argument("transcript", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args(argv)
    process(args.recording, args.transcript, args.output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
