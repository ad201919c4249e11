"""WAV interview cleanup and chapters (reference solution).

python -m solution.audio_chapters RECORDING.wav TRANSCRIPT.csv --output DIR

Writes DIR/<recording stem>/clean.wav, chapters/NN.wav, chapters.json and speaker_time.csv.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import sys
import wave
from array import array
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

THRESHOLD = 500
SILENCE_TENTHS = 12  # 1.2 seconds, in tenths of a second
EARLIEST, TARGET, LATEST = 8 * 60, 10 * 60, 12 * 60  # seconds after the previous boundary


def read_wav(path: Path) -> tuple[wave._wave_params, bytes]:
    with wave.open(str(path), "rb") as wav:
        params = wav.getparams()
        frames = wav.readframes(params.nframes)
    if params.sampwidth != 2 or params.comptype != "NONE":
        raise SystemExit(f"{path}: expected 16-bit PCM, got {params.sampwidth * 8}-bit")
    return params, frames


def quiet_frames(frames: bytes, channels: int) -> list[bool]:
    samples = array("h")
    samples.frombytes(frames)
    if sys.byteorder == "big":
        samples.byteswap()
    quiet = [abs(s) < THRESHOLD for s in samples]
    if channels == 1:
        return quiet
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
        candidates = [m for m in midpoints if low <= m <= high and m < total]
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
    """Frames as seconds, rounded half up to three decimals (a JSON number)."""
    return float((Decimal(frames) / Decimal(rate)).quantize(Decimal("0.001"), ROUND_HALF_UP))


def speaker_time(transcript: Path, lead: Decimal, duration: Decimal) -> dict[str, Decimal]:
    totals: dict[str, Decimal] = {}
    with transcript.open(encoding="utf-8", newline="") as stream:
        for row in csv.DictReader(stream):
            start = min(max(Decimal(row["start"]) - lead, Decimal(0)), duration)
            end = min(max(Decimal(row["end"]) - lead, Decimal(0)), duration)
            totals[row["speaker"]] = totals.get(row["speaker"], Decimal(0)) + max(end - start, 0)
    return totals


def process(recording: Path, transcript: Path, output: Path) -> None:
    params, data = read_wav(recording)
    rate, width = params.framerate, params.nchannels * params.sampwidth
    total = len(data) // width
    runs = silences(quiet_frames(data, params.nchannels), rate)
    lead = runs[0][1] if runs and runs[0][0] == 0 else 0
    tail_start = runs[-1][0] if runs and runs[-1][1] == total else total
    tail_start = max(tail_start, lead)
    clean = data[lead * width : tail_start * width]
    clean_frames = tail_start - lead
    interior = [(a - lead, b - lead) for a, b in runs if a > 0 and b < total]
    cuts = choose_cuts(interior, clean_frames, rate)

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
            value = totals[speaker].quantize(Decimal("0.001"), ROUND_HALF_UP)
            writer.writerow([speaker, f"{value:.3f}"])


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
