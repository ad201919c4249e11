BYPASS_REFUSAL = "a connection straight to the service's port, not via an origin"
"""Why a Python service refused a connection that did not come through one of its origins."""


class _ServiceRecorder:
    """The origins and the request log of a service (see :func:`_service_main`).

    Entries are JSON lines: first ``{"origins": {NAME: PORT}}``, then per request one line
    at its arrival (``seq``, ``time``, ``method``, ``target``, ``version``, ``host``,
    ``headers``, ``body_bytes``, ``in_flight``, ``origin``), later lines of the same ``seq``
    with its ``status``, its ``end`` and (chunked bodies) its ``body_bytes``.
    """

    def __init__(self, plan: dict[str, Any]) -> None:
        import threading

        self.fd = int(plan["log_fd"])
        self.names = [str(n) for n in plan["origins"]]
        self.lock = threading.Lock()
        self.upstream = threading.Event()
        self.port = 0
        self.started = time.monotonic()
        self.seq = self.in_flight = 0
        self.listeners: list[Any] = []
        self.relaying: set[int] = set()  # local ports of relay connections not yet accepted

    def emit(self, entry: dict[str, Any]) -> None:
        with self.lock:
            _write_all(self.fd, (json.dumps(entry, sort_keys=True) + "\n").encode())

    def install(self, *, python: bool) -> None:
        """Open the origins, start their relays; a Python service's port is learned from its
        first listening socket (any other from its ``LISTENING`` line)."""
        import socket
        import threading

        origins = {}
        for name in self.names:
            listener = socket.create_server(("127.0.0.1", 0))
            self.listeners.append(listener)
            origins[name] = listener.getsockname()[1]
            url = f"http://127.0.0.1:{origins[name]}"
            os.environ["BENCHSMITH_ORIGIN_" + name.upper().replace("-", "_")] = url
        os.environ["BENCHSMITH_ORIGIN"] = f"http://127.0.0.1:{origins[self.names[0]]}"
        os.environ["BENCHSMITH_ORIGINS"] = json.dumps(
            {n: f"http://127.0.0.1:{p}" for n, p in origins.items()}
        )
        if python:
            self.patch_listen(socket)
            self.patch_accept(socket)
        for name, listener in zip(self.names, self.listeners, strict=True):
            threading.Thread(target=self.accept, args=(listener, name), daemon=True).start()
        self.emit({"origins": origins})

    def patch_listen(self, socket: Any) -> None:
        """Learn the service's own port from its first listening TCP socket."""
        recorder, original = self, socket.socket.listen

        def listen(sock: Any, *args: Any) -> None:
            original(sock, *args)
            if not recorder.port and sock not in recorder.listeners:
                try:
                    recorder.port = int(sock.getsockname()[1])
                    recorder.upstream.set()
                except (OSError, TypeError, IndexError):  # not an IP socket
                    pass

        socket.socket.listen = listen

    def patch_accept(self, socket: Any) -> None:
        """Guard the service's own port: a connection to it that does not come from one of the
        relays (one sent straight to the port, bypassing the origins) is closed unserved and
        recorded as a refused request of origin "" (:meth:`refuse`); ``accept`` then raises
        ``ConnectionAbortedError``, which ``socketserver`` and ``asyncio`` skip."""
        recorder, original = self, socket.socket.accept

        def accept(sock: Any) -> Any:
            conn, address = original(sock)
            if sock.family not in (socket.AF_INET, socket.AF_INET6) or sock in recorder.listeners:
                return conn, address
            if not recorder.port or sock.getsockname()[1] != recorder.port:
                return conn, address
            host, port = str(address[0]).removeprefix("::ffff:"), int(address[1])
            # A relay's connection is let in once, even if the relay closed it meanwhile: the
            # backlog is accepted in order, so its port cannot come back in a later connection.
            with recorder.lock:
                relayed = host == "127.0.0.1" and port in recorder.relaying
                if relayed:
                    recorder.relaying.discard(port)
            if relayed:
                return conn, address
            conn.close()
            recorder.refuse("", BYPASS_REFUSAL)
            raise ConnectionAbortedError("benchsmith: a connection bypassing the origins")

        socket.socket.accept = accept

    def refuse(self, origin: str, reason: str, target: str = "") -> None:
        """Record a refused request: one the relay could not read as HTTP/1.x (it closed the
        connection instead of passing it on) or a connection that bypassed the origins. Its
        method is "" (it fails any check of the methods) and ``refused`` says why."""
        seq = self.arrived({
            "method": "", "target": target[:4000], "version": "", "host": "", "headers": [],
            "body_bytes": 0, "origin": origin, "refused": reason,
        })  # fmt: skip
        self.finished(seq, answered=False)

    def arrived(self, head: dict[str, Any]) -> int:
        """Record a request whose head arrived; its sequence number."""
        with self.lock:
            self.seq += 1
            self.in_flight += 1
            seq, in_flight = self.seq, self.in_flight
        now = round(time.monotonic() - self.started, 6)
        self.emit({"seq": seq, "time": now, "in_flight": in_flight, **head})
        return seq

    def answered(self, seq: int, status: int) -> None:
        """A request's final status line reached the relay: it is no longer in flight. (The
        body may still be coming, but a client that waits for each response cannot send its
        next request before this, so it never sees two in flight.)"""
        with self.lock:
            self.in_flight -= 1
        self.emit({"seq": seq, "status": status})

    def finished(self, seq: int, answered: bool) -> None:
        """A request's response was relayed completely (or its connection ended)."""
        if not answered:
            with self.lock:
                self.in_flight -= 1
        self.emit({"seq": seq, "end": round(time.monotonic() - self.started, 6)})

    def accept(self, listener: Any, name: str) -> None:
        """Relay each connection to an origin to the service's own port."""
        import threading

        while True:
            client, _ = listener.accept()
            threading.Thread(target=self.relay, args=(client, name), daemon=True).start()

    def relay(self, client: Any, name: str) -> None:
        import socket
        import threading

        if not self.upstream.wait(60.0):
            client.close()
            return
        upstream = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        local = 0
        try:  # its local port is known before the service can accept it (see patch_accept)
            upstream.bind(("127.0.0.1", 0))
            local = int(upstream.getsockname()[1])
            with self.lock:
                self.relaying.add(local)
            upstream.connect(("127.0.0.1", self.port))
        except OSError:
            with self.lock:
                self.relaying.discard(local)
            client.close()
            upstream.close()
            return
        http = _RelayedHttp(self, name)
        back = threading.Thread(target=_pump, args=(upstream, client, http.responses), daemon=True)
        back.start()
        if not _pump(client, upstream, http.requests):  # refused: close both ends
            for end in (client, upstream):
                try:  # noqa: SIM105  # see LIGHT
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        back.join()
        http.closed()
        client.close()
        upstream.close()


_HEAD_LIMIT = 64 * 1024
_TO_CLOSE, _CHUNKED, _OPAQUE = -2, -1, -3  # framings besides a Content-Length
_HEX = frozenset(b"0123456789abcdefABCDEF")
_TOKEN = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


class _Refused(ValueError):
    """A request stream the relay cannot read as HTTP/1.x: it records it and closes it."""


class _HttpReader:
    """Reads one direction of an HTTP/1.x connection as bytes arrive: each message head goes
    to ``on_head``, which returns its body's framing (a length, ``_CHUNKED``, ``_TO_CLOSE``
    or ``_OPAQUE``: stop reading); ``on_end`` gets the body size when the message ends.

    With ``on_refused`` (the requests' reader) :meth:`feed` holds back the bytes it has not
    read yet (a head before its end, a chunk line before its newline), so that the relay
    passes on only what it recorded; whatever it cannot read (a bad head, a bad chunk,
    ``_Refused`` from ``on_head``, a head cut by the end of the stream) goes to
    ``on_refused(reason, text)`` and :meth:`feed` returns None from then on: the relay
    closes the connection. Without it (the responses' reader) every byte is relayed as it
    comes, and a stream it cannot read is relayed unread."""

    def __init__(
        self, on_head: Any, on_end: Any, on_refused: Any = None, on_body: Any = None
    ) -> None:
        import threading

        self.on_head, self.on_end, self.on_refused = on_head, on_end, on_refused
        self.on_body = on_body  # gets each piece of a body as it is read (not chunk lines)
        self.buffer = b""
        self.mode = "head"  # head, body, chunk, data, crlf, trailer, close, opaque, refused
        self.left = self.size = 0
        self.lock = threading.Lock()  # feed and switch come from the two relay threads

    def feed(self, data: bytes) -> bytes | None:
        """Read ``data``; the bytes to relay now, None once the stream was refused."""
        with self.lock:
            if self.mode == "refused":
                return None
            if self.mode in ("opaque", "close"):
                if self.mode == "close" and self.on_body is not None:
                    self.on_body(data)
                self.size += len(data)
                data, self.buffer = self.buffer + data, b""  # what switch() left held back
                return data
            pending = self.buffer = self.buffer + data
            try:
                while self.mode not in ("opaque", "close") and self.step():
                    pass
            except Exception as exc:  # a garbled stream
                self.garbled(exc)
            if self.mode == "refused":
                return None
            if self.on_refused is None:  # the responses: relayed as they come
                if self.mode == "opaque":
                    self.buffer = b""
                return data
            if self.mode == "opaque":
                self.buffer = b""
                return pending
            return pending[: len(pending) - len(self.buffer)]

    def garbled(self, exc: Exception) -> None:
        if self.on_refused is None:  # relayed, not read
            self.mode = "opaque"
            return
        text = self.buffer[:4000].decode("latin-1").split("\n", 1)[0].strip()
        reason = str(exc) if isinstance(exc, _Refused) else f"unreadable {self.mode}"
        self.mode, self.buffer = "refused", b""
        self.on_refused(reason, text)

    def switch(self) -> None:
        """The connection switched protocols (an answered ``Upgrade`` or ``CONNECT``): relay
        the rest unread."""
        with self.lock:
            if self.mode != "refused":
                self.mode = "opaque"  # the bytes held back go with the next ones

    def finish(self) -> bool:
        """The stream ended: a body framed by the close ends with it; a request head it cut
        is refused (False: the service, which got its bytes, must not answer it)."""
        with self.lock:
            if self.mode == "close":
                self.end()
            elif self.on_refused is not None and self.mode == "head" and self.buffer.strip():
                self.garbled(_Refused("a request head cut by the end of the stream"))
            return self.mode != "refused"

    def step(self) -> bool:
        """Read one element of the buffer; False when more bytes are needed."""
        if self.mode in ("body", "data"):
            taken = min(self.left, len(self.buffer))
            if self.on_body is not None and taken:
                self.on_body(self.buffer[:taken])
            self.buffer, self.size = self.buffer[taken:], self.size + taken
            self.left -= taken
            if not self.left and self.mode == "body":
                self.end()
            elif not self.left:
                self.mode = "crlf"
            return bool(self.buffer) or not self.left
        if self.mode == "head":
            return self.head()
        end = self.buffer.find(b"\n")
        if end < 0:
            if len(self.buffer) > _HEAD_LIMIT:
                raise _Refused(f"a chunk line over {_HEAD_LIMIT} bytes")
            return False
        line = self.buffer[:end].strip()  # taken off once read (a refusal names it)
        if self.mode == "chunk":
            digits = line.split(b";", 1)[0].strip()
            if not digits or not _HEX.issuperset(digits):
                raise _Refused("a chunk size that is not hexadecimal")
            size = int(digits, 16)
            self.mode, self.left = ("data", size) if size else ("trailer", 0)
        elif self.mode == "crlf":
            if line:
                raise _Refused("chunk data longer than its size")
            self.mode = "chunk"
        elif not line:  # the trailer's end
            self.end()
        self.buffer = self.buffer[end + 1 :]
        return True

    def head(self) -> bool:
        """Read a message head (a blank line between messages is skipped)."""
        if self.buffer[:1] in (b"\r", b"\n") and self.buffer.lstrip(b"\r\n"):
            self.buffer = self.buffer.lstrip(b"\r\n")
        found = ((self.buffer.find(b"\n\r\n"), 3), (self.buffer.find(b"\n\n"), 2))
        ends = [(at, length) for at, length in found if at >= 0]
        if not ends:
            if len(self.buffer) > _HEAD_LIMIT:
                raise _Refused(f"a head over {_HEAD_LIMIT} bytes")
            return False
        at, length = min(ends)
        lines = self.buffer[:at].decode("latin-1").split("\n")
        if self.on_refused is not None:
            for h in lines[1:]:
                name = h.split(":", 1)[0]
                if ":" not in h or not name or not _TOKEN.issuperset(name):
                    raise _Refused(f"a header line that is not NAME: VALUE: {h.strip()[:200]!r}")
        pairs = [h.split(":", 1) for h in lines[1:] if ":" in h]
        headers = [(k.strip(), v.strip()) for k, v in pairs]
        framing = self.on_head(lines[0].strip(), headers)
        self.buffer = self.buffer[at + length :]
        self.size = 0
        if framing == _OPAQUE:
            self.mode = "opaque"
        elif framing == _TO_CLOSE:
            if self.on_body is not None and self.buffer:
                self.on_body(self.buffer)
            self.mode, self.size, self.buffer = "close", len(self.buffer), b""
        elif framing == _CHUNKED:
            self.mode = "chunk"
        elif framing > 0:
            self.mode, self.left = "body", framing
        else:
            self.end()
        return True

    def end(self) -> None:
        self.mode = "head"
        self.on_end(self.size)


def _header(headers: list[tuple[str, str]], name: str) -> str:
    """The first header ``name`` (any case), "" without one."""
    return next((v for k, v in headers if k.lower() == name), "")


def _framing(headers: list[tuple[str, str]]) -> int:
    """A response body's framing by its headers: chunked, its length, or none (0)."""
    if "chunked" in _header(headers, "transfer-encoding").lower():
        return _CHUNKED
    length = _header(headers, "content-length")
    return int(length) if length.isdigit() else 0


def _request_framing(headers: list[tuple[str, str]]) -> int:
    """A request body's framing: chunked, its length or none (0); ``_Refused`` when its
    length is ambiguous (a service could read it otherwise and find a request in it)."""
    encodings = [v for k, v in headers if k.lower() == "transfer-encoding"]
    lengths = {v for k, v in headers if k.lower() == "content-length"}
    if encodings and lengths:
        raise _Refused("both Transfer-Encoding and Content-Length")
    if encodings:
        if [e.lower() for e in encodings] != ["chunked"]:
            raise _Refused(f"Transfer-Encoding other than chunked: {encodings[:3]}")
        return _CHUNKED
    if len(lengths) > 1:
        raise _Refused(f"Content-Lengths that differ: {sorted(lengths)[:3]}")
    length = next(iter(lengths), "0")
    if not (length.isascii() and length.isdigit()):
        raise _Refused(f"a Content-Length that is not a number: {length[:100]!r}")
    return int(length)


class _RelayedHttp:
    """What the relay of one connection reads of it: the requests from the client and the
    responses from the service, paired in order (pipelining included).

    The requests are read strictly: what is not an HTTP/1.x request (no version or another
    one, HTTP/0.9 included; a bad method or header line; an ambiguous body length: both
    ``Transfer-Encoding`` and ``Content-Length``, one not a number) is recorded as a refused
    request (method "") and its connection closed before the service sees it. A connection
    is read to its end unless the service switched protocols (101, or 2xx to ``CONNECT``);
    an ``Upgrade`` answered otherwise changes nothing."""

    def __init__(self, recorder: _ServiceRecorder, origin: str) -> None:
        import collections

        self.recorder, self.origin = recorder, origin
        self.pending: collections.deque[tuple[int, str]] = collections.deque()  # unanswered
        self.reading = self.chunked = 0  # the request being read (its body chunked)
        self.answering = 0  # the request whose response is being read
        self.requests = _HttpReader(self.request, self.request_end, self.refused)
        self.responses = _HttpReader(self.response, self.response_end, on_body=self.scan)
        port = recorder.port
        self.needles = (b"127.0.0.1:%d" % port, b"localhost:%d" % port) if port else ()
        self.tail = b""  # the end of the previous response chunk (a link split across two)
        self.flagged = 0  # the last request whose response was flagged

    def request(self, line: str, headers: list[tuple[str, str]]) -> int:
        """A request head: record it (before the service sees it); its body's framing."""
        parts = line.split()
        if len(parts) != 3 or not _TOKEN.issuperset(parts[0]):
            raise _Refused("not an HTTP/1.x request line")
        if not parts[2].startswith("HTTP/1.") or not parts[2][7:].isdigit():
            raise _Refused(f"not HTTP/1.x but {parts[2][:20]!r}")
        framing = _request_framing(headers)
        self.reading = self.recorder.arrived({
            "method": parts[0],
            "target": parts[1][:4000],
            "version": parts[2],
            "host": _header(headers, "host"),
            "headers": [[k, v[:1000]] for k, v in headers[:100]],
            "body_bytes": max(framing, 0),
            "origin": self.origin,
        })  # fmt: skip
        self.chunked = self.reading if framing == _CHUNKED else 0
        self.pending.append((self.reading, parts[0].upper()))
        return framing

    def request_end(self, size: int) -> None:
        if self.chunked:
            self.recorder.emit({"seq": self.chunked, "body_bytes": size})

    def refused(self, reason: str, text: str) -> None:
        self.recorder.refuse(self.origin, reason, text)

    def response(self, line: str, headers: list[tuple[str, str]]) -> int:
        """A response head: a final status answers the oldest pending request."""
        parts = line.split(None, 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
            return _OPAQUE
        status = int(parts[1])
        if not self.pending or (100 <= status < 200 and status != 101):
            return 0 if self.pending else _OPAQUE  # an interim response: no body
        self.answering, method = self.pending.popleft()
        self.tail = b""  # a new body: nothing of the last one counts
        self.recorder.answered(self.answering, status)
        if status == 101 or (method == "CONNECT" and 200 <= status < 300):
            self.requests.switch()  # before the client can read this answer
            return _OPAQUE
        if method == "HEAD" or status in (204, 304):
            return 0
        framing = _framing(headers)
        return framing if framing or _header(headers, "content-length") else _TO_CLOSE

    def scan(self, chunk: bytes) -> None:
        """Flag a response whose body holds an absolute link to the service's own port (which
        refuses every connection its origins do not relay): ``private_link`` on its request.
        ``chunk`` is the next piece of the body being read."""
        seq = self.answering
        if not self.needles or not seq or self.flagged == seq:
            return
        text = self.tail + chunk
        self.tail = text[-32:]
        for needle in self.needles:
            start = text.find(needle)
            while start >= 0:
                after = text[start + len(needle) : start + len(needle) + 1]
                if after and not after.isdigit():
                    self.flagged = seq
                    self.recorder.emit({"seq": seq, "private_link": True})
                    return
                start = text.find(needle, start + 1)

    def response_end(self, size: int) -> None:
        if self.answering:
            self.recorder.finished(self.answering, answered=True)
            self.answering = 0

    def closed(self) -> None:
        """Both directions ended: close what is still open."""
        self.responses.finish()
        if self.answering:
            self.recorder.finished(self.answering, answered=True)
        for seq, _ in self.pending:
            self.recorder.finished(seq, answered=False)
        self.pending.clear()


def _pump(source: Any, target: Any, reader: _HttpReader) -> bool:
    """Copy ``source`` to ``target`` until end of file (``reader`` reads each chunk before it
    goes on), then end ``target``'s writing half; False (and nothing more copied) as soon as
    the reader refused the stream."""
    try:
        while chunk := source.recv(65536):
            relayed = reader.feed(chunk)
            if relayed is None:
                return False
            if relayed:
                target.sendall(relayed)
    except OSError:
        pass
    if not reader.finish():
        return False
    try:  # noqa: SIM105  # see LIGHT
        target.shutdown(1)  # socket.SHUT_WR
    except OSError:
        pass
    return True
