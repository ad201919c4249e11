# generated from task.toml by benchsmith -- edit only the authored region
"""Judge of task 21: WAV Interview Cleanup and Chapters.

Usage: python judge.py --workspace WS [--stage N] [--python EXE] [--fixture-cache DIR]

Runs the candidate's commands on a clean main fixture and on the edge fixture, then prints
exactly one JSON verdict (spec section 6). The workspace is only read. With --stage N (a
1-based number or a stage id) it judges the state after stage N with the checks that apply
by then; without it, the final (scored) verdict.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.dont_write_bytecode = True  # keep __pycache__ out of the task and corpus folders

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import benchlib

TASK = {
    "id": 21,
    "slug": "wav-chapters",
    "stages": ["initial", "stereo"],
    "editable": ["solution/", "output/"],
    "commands": [
        {
            "run": "python -m solution.audio_chapters inputs/interview.wav inputs/transcript.csv --output output",
            "argv": [
                "python",
                "-m",
                "solution.audio_chapters",
                "inputs/interview.wav",
                "inputs/transcript.csv",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "initial",
            "timeout": 30.0,
        },
        {
            "run": "python -m solution.audio_chapters inputs/roundtable.wav inputs/roundtable_transcript.csv --output output",
            "argv": [
                "python",
                "-m",
                "solution.audio_chapters",
                "inputs/roundtable.wav",
                "inputs/roundtable_transcript.csv",
                "--output",
                "output",
            ],
            "cwd": ".",
            "stdin": None,
            "stage": "stereo",
            "timeout": 30.0,
        },
    ],
    "outputs": [
        {
            "path": "output/clean.wav",
            "format": "binary",
            "header": [],
            "stage": "initial",
            "until": "initial",
        },
        {
            "path": "output/chapters.json",
            "format": "json",
            "header": [],
            "stage": "initial",
            "until": "initial",
        },
        {
            "path": "output/speaker_time.csv",
            "format": "csv",
            "header": ["speaker", "seconds"],
            "stage": "initial",
            "until": "initial",
        },
        {
            "path": "output/chapters/",
            "format": "directory",
            "header": [],
            "stage": "initial",
            "until": "initial",
        },
        {"path": "output/interview/clean.wav", "format": "binary", "header": [], "stage": "stereo"},
        {
            "path": "output/interview/chapters.json",
            "format": "json",
            "header": [],
            "stage": "stereo",
        },
        {
            "path": "output/interview/speaker_time.csv",
            "format": "csv",
            "header": ["speaker", "seconds"],
            "stage": "stereo",
        },
        {
            "path": "output/interview/chapters/",
            "format": "directory",
            "header": [],
            "stage": "stereo",
        },
        {
            "path": "output/roundtable/chapters/",
            "format": "directory",
            "header": [],
            "stage": "stereo",
        },
        {
            "path": "output/roundtable/clean.wav",
            "format": "binary",
            "header": [],
            "stage": "stereo",
        },
        {
            "path": "output/roundtable/chapters.json",
            "format": "json",
            "header": [],
            "stage": "stereo",
        },
        {
            "path": "output/roundtable/speaker_time.csv",
            "format": "csv",
            "header": ["speaker", "seconds"],
            "stage": "stereo",
        },
    ],
    "expect": [
        {
            "name": "interview-cuts#1",
            "file": "output/interview/chapters.json",
            "level": 4,
            "stage": "stereo",
            "path": "leading_trim_frames",
            "equals": 340,
        },
        {
            "name": "interview-cuts#2",
            "file": "output/interview/chapters.json",
            "level": 4,
            "stage": "stereo",
            "path": "trailing_trim_frames",
            "equals": 450,
        },
        {
            "name": "interview-cuts#3",
            "file": "output/interview/chapters.json",
            "level": 4,
            "stage": "stereo",
            "path": "chapters.0.end_frame",
            "equals": 72000,
        },
        {
            "name": "interview-cuts#4",
            "file": "output/interview/chapters.json",
            "level": 4,
            "stage": "stereo",
            "path": "chapters.1.end_frame",
            "equals": 129000,
        },
        {
            "name": "interview-cuts#5",
            "file": "output/interview/chapters.json",
            "level": 4,
            "stage": "stereo",
            "path": "chapters.2.end_frame",
            "equals": 187600,
        },
        {
            "name": "interview-cuts#6",
            "file": "output/interview/chapters.json",
            "level": 4,
            "stage": "stereo",
            "path": "chapters.3.end_frame",
            "equals": 235600,
        },
        {
            "name": "interview-cuts#7",
            "file": "output/interview/chapters.json",
            "level": 4,
            "stage": "stereo",
            "path": "chapters.4.end_frame",
            "equals": 307600,
        },
        {
            "name": "interview-cuts#8",
            "file": "output/interview/chapters.json",
            "level": 4,
            "stage": "stereo",
            "path": "chapters.5",
            "absent": True,
        },
        {
            "name": "interview-cuts#9",
            "file": "output/interview/speaker_time.csv",
            "level": 4,
            "stage": "stereo",
            "where": {"speaker": "Producer"},
            "equals": {"seconds": "0.000"},
        },
        {
            "name": "interview-cuts#10",
            "file": "output/interview/speaker_time.csv",
            "level": 4,
            "stage": "stereo",
            "where": {"speaker": "de Groot"},
            "equals": {"seconds": "11.750"},
        },
        {
            "name": "roundtable-cuts#1",
            "file": "output/roundtable/chapters.json",
            "level": 4,
            "stage": "stereo",
            "path": "leading_trim_frames",
            "equals": 0,
        },
        {
            "name": "roundtable-cuts#2",
            "file": "output/roundtable/chapters.json",
            "level": 4,
            "stage": "stereo",
            "path": "trailing_trim_frames",
            "equals": 187,
        },
        {
            "name": "roundtable-cuts#3",
            "file": "output/roundtable/chapters.json",
            "level": 4,
            "stage": "stereo",
            "path": "chapters.0.end_frame",
            "equals": 76000,
        },
        {
            "name": "roundtable-cuts#4",
            "file": "output/roundtable/chapters.json",
            "level": 4,
            "stage": "stereo",
            "path": "chapters.1.end_frame",
            "equals": 150000,
        },
        {
            "name": "roundtable-cuts#5",
            "file": "output/roundtable/chapters.json",
            "level": 4,
            "stage": "stereo",
            "path": "clean_frames",
            "equals": 160181,
        },
        {
            "name": "roundtable-cuts#6",
            "file": "output/roundtable/speaker_time.csv",
            "level": 4,
            "stage": "stereo",
            "where": {"speaker": "Priya Raman"},
            "count": 1,
        },
    ],
    "edge_expect": [],
    "edge_include_visible": True,
    "services": [],
}

judge = benchlib.Judge(TASK)

# region authored: benchsmith keeps these lines when it rebuilds judge.py
import io
import itertools
import wave
from array import array
from decimal import Decimal
from fractions import Fraction

# (stem, recording, transcript); stage 1 runs the first command only, stage 2 both
RECORDINGS = [
    ("interview", "inputs/interview.wav", "inputs/transcript.csv"),
    ("roundtable", "inputs/roundtable.wav", "inputs/roundtable_transcript.csv"),
]


def folder(run: benchlib.Run, stem: str) -> str:
    """The output folder of one recording: flat at stage 1, per WAV stem from stage 2."""
    return "output" if len(run.results) == 1 else f"output/{stem}"


def parse_wav(blob: bytes, what: str) -> tuple[tuple[int, int, int], bytes]:
    """((channels, sample width, rate), frames) of a PCM WAV file whose sizes agree."""
    if len(blob) < 44 or blob[:4] != b"RIFF" or blob[8:12] != b"WAVE":
        raise benchlib.CheckFailed(f"{what}: not a RIFF/WAVE file")
    if int.from_bytes(blob[4:8], "little") != len(blob) - 8:
        raise benchlib.CheckFailed(f"{what}: the RIFF size does not match the file size")
    try:
        with wave.open(io.BytesIO(blob), "rb") as wav:
            params = wav.getparams()
            frames = wav.readframes(params.nframes)
    except Exception as exc:  # any malformed header
        raise benchlib.CheckFailed(f"{what}: unreadable WAV ({exc})") from None
    if params.comptype != "NONE":
        raise benchlib.CheckFailed(f"{what}: not PCM")
    if len(frames) != params.nframes * params.nchannels * params.sampwidth:
        raise benchlib.CheckFailed(f"{what}: the data chunk is shorter than its header says")
    return (params.nchannels, params.sampwidth, params.framerate), frames


def seconds3(frames: int, rate: int) -> Fraction:
    """frames / rate rounded half up to three decimals."""
    scaled = Fraction(frames * 1000, rate)
    whole = scaled.numerator // scaled.denominator
    return Fraction(whole + (1 if scaled - whole >= Fraction(1, 2) else 0), 1000)


def text3(value: Fraction) -> str:
    scaled = value * 1000
    whole = scaled.numerator // scaled.denominator
    whole += 1 if scaled - whole >= Fraction(1, 2) else 0
    return f"{whole // 1000}.{whole % 1000:03d}"


class Expected:
    """TASK.md recomputed from one pristine recording and its transcript."""

    def __init__(self, source: benchlib.Files, wav: str, transcript: str) -> None:
        (self.channels, self.width, self.rate), self.data = parse_wav(source.bytes(wav), wav)
        self.block = self.channels * self.width
        samples = array("h", self.data)
        if sys.byteorder == "big":
            samples.byteswap()
        self.total = len(samples) // self.channels
        need = Fraction(12, 10) * self.rate  # frames of 1.2 s
        runs, first = [], None
        for frame in range(self.total + 1):
            base = frame * self.channels
            quiet = (
                frame < self.total
                and max(abs(x) for x in samples[base : base + self.channels]) < 500
            )
            if quiet and first is None:
                first = frame
            elif not quiet and first is not None:
                if frame - first >= need:
                    runs.append((first, frame))
                first = None
        self.lead = runs[0][1] if runs and runs[0][0] == 0 else 0
        stop = runs[-1][0] if runs and runs[-1][1] == self.total and runs[-1][0] > 0 else self.total
        self.tail = self.total - stop
        self.frames = stop - self.lead
        self.clean = self.data[self.lead * self.block : stop * self.block]
        mids = sorted((a + b) // 2 - self.lead for a, b in runs if a > 0 and b < self.total)
        self.cuts: list[int] = []
        at = 0
        while self.frames:
            near = [m for m in mids if at + 480 * self.rate <= m <= at + 720 * self.rate]
            if near:
                best = near[0]
                for m in near:
                    if abs(m - at - 600 * self.rate) < abs(best - at - 600 * self.rate):
                        best = m
                at = best
            elif at + 720 * self.rate < self.frames:
                at += 720 * self.rate
            else:
                break
            self.cuts.append(at)
        self.edges = [0, *self.cuts, self.frames] if self.frames else []
        lead_s, length = Fraction(self.lead, self.rate), Fraction(self.frames, self.rate)
        totals: dict[str, Fraction] = {}
        for row in source.csv(transcript):
            a = min(max(Fraction(row["start"]) - lead_s, Fraction(0)), length)
            b = min(max(Fraction(row["end"]) - lead_s, Fraction(0)), length)
            totals[row["speaker"]] = totals.get(row["speaker"], Fraction(0)) + max(b - a, 0)
        self.speakers = [[name, text3(totals[name])] for name in sorted(totals)]

    @property
    def params(self) -> tuple[int, int, int]:
        return (self.channels, self.width, self.rate)


def expected(run: benchlib.Run, index: int) -> Expected:
    key = f"expected-{index}"
    if key not in run.memo:
        run.memo[key] = Expected(run.source, RECORDINGS[index][1], RECORDINGS[index][2])
    result: Expected = run.memo[key]
    return result


def check_clean(run: benchlib.Run, index: int) -> None:
    truth, out = expected(run, index), folder(run, RECORDINGS[index][0])
    params, frames = parse_wav(run.bytes(f"{out}/clean.wav"), f"{out}/clean.wav")
    benchlib.expect_equal(params, truth.params, "clean.wav (channels, sample width, rate)")
    benchlib.expect_equal(len(frames) // truth.block, truth.frames, "clean.wav frame count")
    benchlib.expect(
        frames == truth.clean, "clean.wav frames are not the recording's untrimmed frames"
    )


def chapter_list(run: benchlib.Run, out: str) -> list:
    chapters = run.json(f"{out}/chapters.json")
    benchlib.expect(isinstance(chapters, dict), "chapters.json is not an object")
    listed = chapters.get("chapters") if isinstance(chapters, dict) else None
    benchlib.expect(isinstance(listed, list), "chapters.json: `chapters` is not a list")
    benchlib.expect(
        all(isinstance(c, dict) for c in listed), "chapters.json: a chapter is not an object"
    )
    return listed


def check_chapter_files(run: benchlib.Run, index: int) -> None:
    """Chapter WAVs numbered 01.. in order, with the recording's format, covering clean.wav."""
    truth, out = expected(run, index), folder(run, RECORDINGS[index][0])
    listed = chapter_list(run, out)
    names = [f"chapters/{n:02d}.wav" for n in range(1, len(listed) + 1)]
    benchlib.expect_equal([c.get("file") for c in listed], names, "chapter files")
    benchlib.expect_equal(
        [c.get("number") for c in listed], list(range(1, len(listed) + 1)), "chapter numbers"
    )
    present = run.files.path(f"{out}/chapters")
    found = sorted(p.name for p in present.iterdir()) if present.is_dir() else []
    benchlib.expect_equal(found, [n.split("/")[1] for n in names], f"files in {out}/chapters/")
    joined = b""
    for name in names:
        params, frames = parse_wav(run.bytes(f"{out}/{name}"), f"{out}/{name}")
        benchlib.expect_equal(params, truth.params, f"{name} (channels, sample width, rate)")
        benchlib.expect(frames, f"{name} is empty")
        joined += frames
    benchlib.expect(joined == truth.clean, "the chapters joined in order are not the clean audio")


def check_boundaries(run: benchlib.Run, index: int) -> None:
    truth, out = expected(run, index), folder(run, RECORDINGS[index][0])
    listed = chapter_list(run, out)
    spans = [[c.get("start_frame"), c.get("end_frame")] for c in listed]
    benchlib.expect_equal(
        spans, [list(p) for p in itertools.pairwise(truth.edges)], "chapter frames"
    )
    for chapter, (start, end) in zip(listed, itertools.pairwise(truth.edges), strict=False):
        for field, frames in (("start_seconds", start), ("end_seconds", end)):
            value = chapter.get(field)
            ok = isinstance(value, (int, Decimal)) and not isinstance(value, bool)
            benchlib.expect(
                ok and Fraction(str(value)) == seconds3(frames, truth.rate),
                f"chapter {chapter.get('number')}: {field} {value!r}",
            )
        name = f"{out}/chapters/{chapter.get('number', 0):02d}.wav"
        frames = parse_wav(run.bytes(name), name)[1]
        benchlib.expect(
            frames == truth.clean[start * truth.block : end * truth.block],
            f"{name}: not the clean frames {start}..{end}",
        )


def check_summary(run: benchlib.Run, index: int) -> None:
    truth, out = expected(run, index), folder(run, RECORDINGS[index][0])
    summary = run.json(f"{out}/chapters.json")
    benchlib.expect(isinstance(summary, dict), "chapters.json is not an object")
    fields = [
        "sample_rate",
        "channels",
        "sample_width",
        "leading_trim_frames",
        "trailing_trim_frames",
        "clean_frames",
    ]
    got = [summary.get(f) for f in fields]
    want = [truth.rate, truth.channels, truth.width, truth.lead, truth.tail, truth.frames]
    benchlib.expect_equal(got, want, f"chapters.json {', '.join(fields)}")
    benchlib.expect_equal(sorted(summary), sorted([*fields, "chapters"]), "chapters.json keys")
    keys = ["number", "file", "start_frame", "end_frame", "start_seconds", "end_seconds"]
    for chapter in chapter_list(run, out):
        benchlib.expect_equal(sorted(chapter), sorted(keys), "keys of a chapter in chapters.json")


def check_speakers(run: benchlib.Run, index: int) -> None:
    truth, out = expected(run, index), folder(run, RECORDINGS[index][0])
    rows = run.files.csv_rows(f"{out}/speaker_time.csv")
    benchlib.expect_equal(rows, [["speaker", "seconds"], *truth.speakers], "speaker_time.csv")


@judge.check(level=3)
def interview_clean_audio(run: benchlib.Run) -> None:
    """clean.wav: the interview's frames between the leading and trailing silence."""
    check_clean(run, 0)


@judge.check(level=3)
def interview_chapter_files(run: benchlib.Run) -> None:
    """The chapter WAVs are valid, numbered in order and together hold the clean audio."""
    check_chapter_files(run, 0)


@judge.check(level=4)
def interview_chapter_boundaries(run: benchlib.Run) -> None:
    """Each cut: the silence midpoint nearest 10 minutes within 8..12, else 12 minutes."""
    check_boundaries(run, 0)


@judge.check(level=4)
def interview_summary(run: benchlib.Run) -> None:
    """chapters.json states the format, the trims and the clean length."""
    check_summary(run, 0)


@judge.check(level=4)
def interview_speaker_time(run: benchlib.Run) -> None:
    """Per-speaker totals of shifted, clipped utterances."""
    check_speakers(run, 0)


@judge.check(level=4, stage="stereo")
def roundtable_clean_audio(run: benchlib.Run) -> None:
    """Stereo: a frame is silent only when both channels are quiet."""
    check_clean(run, 1)
    check_summary(run, 1)


@judge.check(level=4, stage="stereo")
def roundtable_chapters(run: benchlib.Run) -> None:
    check_chapter_files(run, 1)
    check_boundaries(run, 1)


@judge.check(level=4, stage="stereo")
def roundtable_speaker_time(run: benchlib.Run) -> None:
    check_speakers(run, 1)


@judge.edge
def all_silence(run: benchlib.Run) -> None:
    """Every recording is silence: zero-frame clean.wav, no chapters, zero speaker time."""
    for index in range(len(run.results)):
        truth, out = expected(run, index), folder(run, RECORDINGS[index][0])
        benchlib.expect_equal((truth.lead, truth.frames), (truth.total, 0), "edge fixture")
        check_clean(run, index)
        check_summary(run, index)
        benchlib.expect_equal(chapter_list(run, out), [], f"{out}/chapters.json chapters")
        present = run.files.path(f"{out}/chapters")
        found = sorted(p.name for p in present.iterdir()) if present.is_dir() else []
        benchlib.expect_equal(found, [], f"files in {out}/chapters/")
        check_speakers(run, index)
        benchlib.expect(all(r[1] == "0.000" for r in expected(run, index).speakers), "edge truth")


# endregion authored

if __name__ == "__main__":
    sys.exit(judge.main())
