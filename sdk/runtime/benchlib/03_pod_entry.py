if __name__ == "__main__" and sys.argv[1:2] == [POD_FLAG]:
    sys.exit(_pod_main())
if __name__ == "__main__" and sys.argv[1:2] == [SERVICE_FLAG]:
    sys.exit(_service_main(sys.argv[2:]))

# Everything below is imported only by judges, seeds and the SDK, never by a pod's PID 1.
import argparse
import bisect
import codecs
import contextlib
import csv
import datetime as _dt
import decimal
import errno
import functools
import gzip
import hashlib
import io
import itertools
import operator
import pickle
import posixpath
import random
import re
import resource
import selectors
import shlex
import shutil
import sqlite3
import stat
import subprocess
import tempfile
import threading
import traceback
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import IO, Any, TypeVar, cast, overload

# The corpus-facing API (see the module docstring); tests/runtime/test_api.py keeps it honest.
__all__ = [
    "CheckFailed",
    "CommandResult",
    "Files",
    "HttpResponse",
    "Judge",
    "Request",
    "Run",
    "SeedContext",
    "as_decimal",
    "expect",
    "expect_equal",
    "seed_main",
]

FILE_MODE = 0o644
DIR_MODE = 0o755
READ_ONLY_FILE = 0o444
READ_ONLY_DIR = 0o555
GZIP_LEVEL = 6
READ_LIMIT = 256 * 1024 * 1024
CAPTURE_LIMIT = 64 * 1024
NOTE_LIMIT = 300
SEED_TIMEOUT = 900.0
