"""A booklet made from a referee's own templates is made in a child process with limits.

The sandbox (render/templating.py) keeps a template from reaching anything it should not; it
cannot keep one from looping for hours or building a huge page, nor WeasyPrint from laying
out whatever such a template printed. So when --templates is given, the booklet is made in a
forked child whose CPU time and memory are capped (DELVE_TEMPLATE_SECONDS, default 120 s;
DELVE_TEMPLATE_MEMORY_MB over what Delve already uses, default 2,048). The child sends back
its progress, its warnings and its result (or its one-line error) over a pipe, as data, and
the parent reads at most MAX_RESULT_BYTES of it. A child stopped by a limit is one line of
error. Delve's own templates are trusted and render in the process itself, as they do where
there is no fork (Windows).

The slowest real booklet measured, a PDF of a 91-hex region (--radius 5), took 31 s of the
child's CPU time and 495 MB (a 37-hex one, --radius 3: 16 s and 289 MB); its PDF is 3.4 MB.
"""

from __future__ import annotations

import json
import os
import select
import signal
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from generator import errors
from generator.errors import DelveError, TableError, TemplateError

_FRAME_HEAD = 9  # one byte of kind, eight of length
MAX_RESULT_BYTES = 512 * 1024 * 1024  # one message from the child (a 91-hex PDF is 3.4 MB)
_CHATTER_BYTES = 16 * 1024 * 1024  # its progress and warnings besides


def seconds() -> int:
    return _env_int("DELVE_TEMPLATE_SECONDS", 120)


def memory_mb() -> int:
    return _env_int("DELVE_TEMPLATE_MEMORY_MB", 2048)


def _env_int(name: str, default: int) -> int:
    try:
        value = int(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


def run(fn: Callable[..., Any], options: Any, *args: Any) -> Any:
    """fn(options, *args) in a limited child when the options name user template folders,
    else here."""
    if not options.templates or not hasattr(os, "fork"):
        return fn(options, *args)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        try:
            os.close(read_end)
            _child(write_end, fn, options, args)
        finally:
            os._exit(0)
    os.close(write_end)
    return _parent(read_end, pid, options)


# --------------------------------------------------------------------------- the child


def _limit() -> None:
    import resource

    cpu = seconds()
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    top = hard if hard != resource.RLIM_INFINITY else cpu + 5
    resource.setrlimit(resource.RLIMIT_CPU, (min(cpu, top), hard))
    try:
        with open("/proc/self/statm") as fh:  # the address space already in use
            used = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return  # no /proc (macOS): CPU time alone is bounded
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    wanted = used + memory_mb() * 1024 * 1024
    if hard == resource.RLIM_INFINITY or wanted < hard:
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))


def _child(fd: int, fn: Callable[..., Any], options: Any, args: tuple[Any, ...]) -> None:
    out = os.fdopen(fd, "wb")

    def send(kind: bytes, payload: bytes) -> None:
        out.write(kind + len(payload).to_bytes(8, "big") + payload)
        out.flush()

    def text(value: str) -> bytes:
        return value.encode("utf-8", "surrogatepass")

    try:
        _limit()
        relay = replace(
            options,
            progress=(lambda stage, done: send(b"P", text(json.dumps([stage, done]))))
            if options.progress
            else None,
            warn=(lambda message: send(b"W", text(message))) if options.warn else None,
        )
        result = fn(relay, *args)
        send(b"S", text(result)) if isinstance(result, str) else send(b"B", bytes(result))
    except TableError as err:
        send(b"E", text(json.dumps({"class": "TableError", "problems": err.problems})))
    except DelveError as err:
        send(b"E", text(json.dumps({"class": type(err).__name__, "message": str(err)})))
    except MemoryError:
        send(b"M", b"")
    except BaseException as err:  # noqa: BLE001 - a bug: the parent reports it
        import traceback

        send(b"X", text("".join(traceback.format_exception(err))))
    finally:
        out.close()


# --------------------------------------------------------------------------- the parent


def _parent(fd: int, pid: int, options: Any) -> Any:
    deadline = time.monotonic() + 2 * seconds() + 30  # CPU time is capped; this is wall time
    buffer = bytearray()
    received = 0  # all messages: progress and warnings too are bounded
    result: Any = None
    failure: BaseException | None = None
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                failure = _too_long()
                break
            ready, _, _ = select.select([fd], [], [], min(left, 5.0))
            if not ready:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            buffer += chunk
            received += len(chunk)
            if received > MAX_RESULT_BYTES + _CHATTER_BYTES:
                os.kill(pid, signal.SIGKILL)
                raise _too_big_result(received)
            while len(buffer) >= _FRAME_HEAD:
                size = int.from_bytes(buffer[1:_FRAME_HEAD], "big")
                if size > MAX_RESULT_BYTES:  # refused before it is read, not after
                    os.kill(pid, signal.SIGKILL)
                    raise _too_big_result(size)
                if len(buffer) < _FRAME_HEAD + size:
                    break
                kind, payload = bytes(buffer[:1]), bytes(buffer[_FRAME_HEAD : _FRAME_HEAD + size])
                del buffer[: _FRAME_HEAD + size]
                got = _frame(kind, payload, options)
                if got is not None:
                    result, failure = got
    finally:
        os.close(fd)
        _, status = os.waitpid(pid, 0)
    if failure is not None:
        raise failure
    if result is not None:
        return result
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
        raise _too_long()
    if os.WIFSIGNALED(status):  # a library that could not allocate aborts or faults
        raise _too_big()
    raise TemplateError("the booklet's child process stopped without a result")


def _frame(kind: bytes, payload: bytes, options: Any) -> tuple[Any, Any] | None:
    """Handle one message from the child: (result, error) when it is the last."""
    if kind == b"B":
        return payload, None
    text = payload.decode("utf-8", "surrogatepass")
    if kind == b"P":
        if options.progress:
            stage, done = json.loads(text)
            options.progress(stage, done)
        return None
    if kind == b"W":
        if options.warn:
            options.warn(text)
        return None
    if kind == b"S":
        return text, None
    if kind == b"M":
        return None, _too_big()
    if kind == b"E":
        data = json.loads(text)
        if data["class"] == "TableError":
            return None, TableError(data["problems"])
        cls = getattr(errors, data["class"], DelveError)
        cls = cls if isinstance(cls, type) and issubclass(cls, DelveError) else DelveError
        return None, cls(data["message"])
    return None, RuntimeError(f"the booklet's child process failed:\n{text}")


def _too_long() -> TemplateError:
    return TemplateError(
        f"the templates took more than {seconds():,} s of CPU time to make the booklet "
        "(DELVE_TEMPLATE_SECONDS raises the limit)"
    )


def _too_big_result(size: int) -> TemplateError:
    return TemplateError(
        f"the templates made a booklet of {size:,} bytes; Delve takes at most "
        f"{MAX_RESULT_BYTES:,} from them"
    )


def _too_big() -> TemplateError:
    return TemplateError(
        f"the templates needed more than {memory_mb():,} MB of memory to make the booklet "
        "(DELVE_TEMPLATE_MEMORY_MB raises the limit)"
    )
