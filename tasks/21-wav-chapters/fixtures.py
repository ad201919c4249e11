"""Fixture generators of task 21: two interview recordings and their transcripts.

The recordings are real 16-bit PCM WAV files at a low sample rate (100 Hz mono, 125 Hz
stereo) so that fifty minutes of audio stay small. "Speech" is loud noise (|sample| >= 500
but for isolated soft samples and short pauses under a second); a quiet stretch has every
sample in -499..499. Every silence (a quiet run of at least 1.2 s) is placed by hand below,
at clean-audio frame positions; the comments name the rule each one pins.

Interview (mono, 100 Hz; 1.2 s = 120 frames; 8/10/12 minutes = 48000/60000/72000 frames).
Leading silence 340 frames, clean audio 307600 frames, trailing silence 450 frames.
Chapter cuts (clean frames): 72000 (forced), 129000, 187600, 235600; the last chapter is
exactly 12 minutes long, so no further cut.

Roundtable (stereo, 125 Hz; 1.2 s = 150 frames; 8/10/12 minutes = 60000/75000/90000).
Two speakers, one per channel: while one talks the other channel is quiet, so only a pause
of both is a silence. No leading silence (0.8 s of quiet, then the right speaker talks),
clean audio 160181 frames, trailing silence 187 frames after a single sample of exactly 500.
Chapter cuts: 76000, 150000.
"""

from __future__ import annotations

import io
import random
import wave
from array import array

import benchlib

QUIET = 499

# --- interview (mono) -------------------------------------------------------------------------

MONO_RATE = 100
MONO_LEAD = 340
MONO_CLEAN = 307600
MONO_TAIL = 450

# (kind, first clean frame, length): "silence" is a quiet run of the given length; "short" a
# quiet run too short to be a silence; "split" a quiet run whose middle sample is exactly 500.
MONO_EVENTS = [
    # chapter 1 (window 48000..72000): no midpoint inside -> forced cut at 72000
    ("silence", 23890, 220),  # midpoint 24000: before the window
    ("silence", 47929, 140),  # midpoint 47999: one frame before the window
    ("silence", 71901, 200),  # midpoint 72001: one frame after the window
    # chapter 2 (after 72000: window 120000..144000, target 132000)
    ("silence", 116935, 130),  # midpoint 117000: before the window
    ("silence", 128900, 200),  # midpoint 129000: 3000 before the target -> cut (tie, earlier)
    ("silence", 134920, 160),  # midpoint 135000: 3000 after the target
    ("silence", 140800, 400),  # midpoint 141000
    # chapter 3 (after 129000: window 177000..201000, target 189000)
    ("silence", 175900, 200),  # midpoint 176000: before the window
    ("silence", 183425, 150),  # midpoint 183500
    ("silence", 187540, 120),  # exactly 1.2 s, midpoint 187600: the nearest silence -> cut
    ("short", 188941, 119),  # 1.19 s centred on 189000: not a silence
    ("split", 189825, 151),  # a 500 at 189900 splits it into two 75-frame runs
    ("silence", 190850, 300),  # midpoint 191000
    ("silence", 194910, 180),  # midpoint 195000
    # chapter 4 (after 187600: window 235600..259600): one silence on the window's first frame
    ("silence", 235538, 124),  # midpoint 235600 -> cut
    # chapter 5 (after 235600): ends exactly 12 minutes later, at the clean end -> no cut
    ("silence", 269875, 250),  # midpoint 270000: before the window
]

MONO_SPEAKERS = ["Host", "Dr. Amara Okafor", "Zoë Lind"]
MONO_LINES = [
    "Welcome back to Harbour Voices.",
    "Thanks, it's good to be here.",
    'We called it "the long winter", and it was.',
    "The archive had 4,000 boxes, none of them labelled.",
    "So what changed, in the end?",
    "Funding, mostly; and patience.",
    "Can you say more about the volunteers?",
    "I have a question about the map, if that's all right.",
]

# --- roundtable (stereo) ---------------------------------------------------------------------

STEREO_RATE = 125
STEREO_CLEAN = 160181
STEREO_TAIL = 187

# Pauses where both channels are quiet, at clean frames (first frame, length).
STEREO_PAUSES = [
    (72920, 160),  # midpoint 73000
    (75925, 150),  # exactly 1.2 s, midpoint 76000 -> cut (target 75000; 75200 is no silence)
    (110000, 300),  # midpoint 110150: before the second window
    (149915, 170),  # midpoint 150000 -> cut (window 136000..166000, target 151000)
    (160000, 180),  # quiet, then one right-channel sample of exactly 500 at 160180
]
# The left speaker talks softly (600..900) while the right is quiet: an average of the two
# channels would call it silent; the rule (both below 500) does not.
STEREO_MUMBLE = (75100, 200)
STEREO_SPEAKERS = ["Priya Raman", "Tomás Ortega"]
STEREO_LINES = [
    "Let's start with the bridge vote.",
    "I think the council got it right, mostly.",
    "Mostly?",
    'The phrase was "temporary closure", and that was in 2019.',
    "Fair, but the ferry numbers tell a different story.",
    "Numbers, yes; people, no.",
]


def _quiet(rng: random.Random) -> int:
    return rng.choice((-1, 1)) * (QUIET if rng.random() < 0.02 else rng.randint(0, 140))


def _loud(rng: random.Random) -> int:
    return rng.choice((-1, 1)) * (500 if rng.random() < 0.01 else rng.randint(900, 14000))


def _speech(rng: random.Random, count: int) -> list[int]:
    """Loud noise with soft isolated samples and pauses of at most 0.8 s at 100 Hz."""
    out: list[int] = []
    while len(out) < count:
        burst = rng.randint(150, 900)
        out += [_loud(rng) if rng.random() > 0.08 else _quiet(rng) for _ in range(burst)]
        out.append(_loud(rng))
        if rng.random() < 0.6:
            out += [_quiet(rng) for _ in range(rng.randint(15, 80))]
            out.append(_loud(rng))
    out = out[:count]
    out[0] = out[-1] = 3000
    return out


def _place(samples: list[int], start: int, length: int, rng: random.Random) -> None:
    """A quiet run of exactly ``length`` frames at ``start``, bounded by loud samples."""
    samples[start - 1] = -3200
    for i in range(start, start + length):
        samples[i] = _quiet(rng)
    samples[start + length] = 3100


def _wav(channels: int, rate: int, frames: array) -> bytes:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(channels)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(frames.tobytes())
    return buffer.getvalue()


def _pcm(samples: list[int]) -> array:
    data = array("h", samples)
    if data.itemsize != 2:  # pragma: no cover - array('h') is 16-bit on every CPython
        raise RuntimeError("16-bit array expected")
    return data


def _time(frame: int, rate: int) -> str:
    return f"{frame / rate:.3f}"


def _utterances(
    rng: random.Random, speakers: list[str], lines: list[str], start: float, end: float
) -> list[dict]:
    """Turns of the speakers from ``start`` to ``end`` seconds, 3 to 40 s each."""
    rows = []
    t = start
    turn = 0
    while t < end - 5:
        length = rng.randint(3000, 40000) / 1000
        stop = min(t + length, end - 1)
        rows.append(
            {
                "speaker": speakers[turn % len(speakers)] if rng.random() > 0.1 else speakers[0],
                "start": f"{t:.3f}",
                "end": f"{stop:.3f}",
                "text": rng.choice(lines),
            }
        )
        turn += 1
        t = stop + rng.randint(200, 2500) / 1000
    return rows


def _number(rows: list[dict], prefix: str) -> list[dict]:
    return [{"utterance_id": f"{prefix}{i:04d}", **row} for i, row in enumerate(rows, 1)]


HEADER = ["utterance_id", "speaker", "start", "end", "text"]


def interview(ctx: benchlib.SeedContext) -> None:
    """inputs/interview.wav and inputs/transcript.csv (stage 1)."""
    rng = ctx.rng
    clean = _speech(rng, MONO_CLEAN)
    for kind, start, length in MONO_EVENTS:
        _place(clean, start, length, rng)
        if kind == "split":
            clean[start + length // 2] = 500
    lead = [_quiet(rng) for _ in range(MONO_LEAD)]
    lead[7], lead[-1] = QUIET, -QUIET
    tail = [_quiet(rng) for _ in range(MONO_TAIL)]
    tail[0] = -QUIET
    ctx.write_bytes("inputs/interview.wav", _wav(1, MONO_RATE, _pcm(lead + clean + tail)))

    total = MONO_LEAD + MONO_CLEAN + MONO_TAIL
    rows = [
        # the producer speaks only in the leading silence: 0 seconds
        {"speaker": "Producer", "start": "0.500", "end": "2.100", "text": "Rolling, go ahead."},
        # starts in the leading silence: clipped to the clean start
        {"speaker": "Host", "start": "2.950", "end": "9.125", "text": MONO_LINES[0]},
    ]
    rows += _utterances(rng, MONO_SPEAKERS, MONO_LINES, 9.9, 3070.0)
    # a caller whose name sorts after every capitalised one in code-point order
    rows.append(
        {"speaker": "de Groot", "start": "1500.250", "end": "1512.000", "text": MONO_LINES[7]}
    )
    rows += [
        # runs into the trailing silence (clean end 3079.400 s): clipped
        {
            "speaker": "Dr. Amara Okafor",
            "start": "3071.250",
            "end": "3081.900",
            "text": "Thank you.",
        },
        # wholly inside the trailing silence: 0 seconds
        {
            "speaker": "Zoë Lind",
            "start": "3080.000",
            "end": _time(total - 20, MONO_RATE),
            "text": "Bye!",
        },
    ]
    ctx.write_csv("inputs/transcript.csv", HEADER, _number(rows, "U"))


def roundtable(ctx: benchlib.SeedContext) -> None:
    """inputs/roundtable.wav and inputs/roundtable_transcript.csv (stage 2)."""
    rng = ctx.rng
    left = [_quiet(rng) for _ in range(STEREO_CLEAN + STEREO_TAIL)]
    right = [_quiet(rng) for _ in range(STEREO_CLEAN + STEREO_TAIL)]
    # turns: the right speaker first (from frame 0, while the left channel is quiet)
    frame, channel = 100, right  # 0.8 s of quiet first: too short to be trimmed
    stops = sorted(STEREO_PAUSES)
    while frame < 160000:
        length = rng.randint(400, 5000)
        stop = min(frame + length, 160000)
        for start, _size in stops:  # a turn never runs through a placed pause
            if frame <= start < stop:
                stop = start
        channel[frame:stop] = _speech(rng, stop - frame)
        gap = next((size for start, size in stops if start == stop), 0)
        if not gap and stop < 160000:
            gap = rng.randint(10, 100)  # a short pause of both (under 0.8 s)
        frame = stop + gap
        channel = left if channel is right else right
    for start, size in STEREO_PAUSES:
        for i in range(start, start + size):
            left[i], right[i] = _quiet(rng), _quiet(rng)
        # a loud sample on each side of the pause (on the speaking channel)
        left[start - 1] = 2500
        if start + size < STEREO_CLEAN:
            right[start + size] = -2500
    first, size = STEREO_MUMBLE
    for i in range(first, first + size):
        left[i] = rng.choice((-1, 1)) * rng.randint(600, 900)
        right[i] = _quiet(rng)
    right[STEREO_CLEAN - 1] = 500
    frames = [s for pair in zip(left, right, strict=True) for s in pair]
    ctx.write_bytes("inputs/roundtable.wav", _wav(2, STEREO_RATE, _pcm(frames)))

    total = STEREO_CLEAN + STEREO_TAIL
    rows = _utterances(rng, STEREO_SPEAKERS, STEREO_LINES, 0.0, 1276.0)
    rows += [
        # runs from the clean audio into the trailing silence (clean end 1281.448 s)
        {"speaker": "Tomás Ortega", "start": "1277.200", "end": "1282.500", "text": "Thanks, all."},
        {
            "speaker": "Priya Raman",
            "start": "1282.600",
            "end": _time(total, STEREO_RATE),
            "text": "Bye.",
        },
    ]
    ctx.write_csv("inputs/roundtable_transcript.csv", HEADER, _number(rows, "R"))


def edge_recordings(ctx: benchlib.SeedContext) -> None:
    """The edge: both recordings are silence from the first frame to the last."""
    rng = ctx.rng
    mono = [_quiet(rng) for _ in range(500)]
    mono[3] = -QUIET
    ctx.write_bytes("inputs/interview.wav", _wav(1, MONO_RATE, _pcm(mono)))
    ctx.write_csv(
        "inputs/transcript.csv",
        HEADER,
        [
            {
                "utterance_id": "U0001",
                "speaker": "Host",
                "start": "0.400",
                "end": "2.250",
                "text": "Hello?",
            },
            {
                "utterance_id": "U0002",
                "speaker": "Guest",
                "start": "2.500",
                "end": "4.750",
                "text": "Can you hear me?",
            },
        ],
    )
    stereo = [_quiet(rng) for _ in range(2 * 500)]
    stereo[1] = QUIET
    ctx.write_bytes("inputs/roundtable.wav", _wav(2, STEREO_RATE, _pcm(stereo)))
    ctx.write_csv(
        "inputs/roundtable_transcript.csv",
        HEADER,
        [
            {
                "utterance_id": "R0001",
                "speaker": "Tomás Ortega",
                "start": "0.000",
                "end": "3.000",
                "text": "Testing.",
            },
        ],
    )
