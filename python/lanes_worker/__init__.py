"""Turn a function into a persistent Lanes worker (docs/worker-protocol.md).

    import lanes_worker

    model = load_model()              # once, before the first job

    def handle(payload, job):
        for i, doc in enumerate(payload["docs"]):
            model.embed(doc)
            job.progress(i + 1, len(payload["docs"]), "embedding")
        return {"embedded": len(payload["docs"])}

    lanes_worker.run(handle)

`run` says the worker is loaded, then reads one job per line from Lanes and answers each with
what `handle` returned (any JSON value). An exception fails that job, its traceback in the job's
stderr log, and the job is tried again while it has attempts left; raise `Refuse` when the
payload itself is wrong and no retry could mend it. What `handle` prints goes to the job's
stdout log, never in the way of the answers.
"""
import json
import sys
import threading
import time
import traceback

__all__ = ["Job", "Refuse", "run"]
__version__ = "0.1.0"

# The worker relays at most ten reports a second; more lines than that would only be folded.
_PROGRESS_EVERY_S = 0.05


class Refuse(Exception):
    """The payload itself is refused: the job fails at once, with no retry."""


class _Wire:
    """The protocol's own stdout. Each line goes out whole, after any partial line printed before
    it is ended, so a print without a newline never runs into an answer."""

    def __init__(self, out):
        self._out = out
        self._lock = threading.Lock()
        self._open_line = False

    def send(self, message):
        line = json.dumps(message, separators=(",", ":"), allow_nan=False)
        with self._lock:
            if self._open_line:
                self._out.write("\n")
                self._open_line = False
            self._out.write(line + "\n")
            self._out.flush()

    def log(self, text):
        with self._lock:
            self._out.write(text)
            if text:
                self._open_line = not text.endswith("\n")
            self._out.flush()


class _Printed:
    """What the worker's code prints: kept as the job's log lines (Lanes keeps every stdout line
    that is not an answer), written through the same wire so lines and answers stay apart."""

    def __init__(self, wire, real):
        self._wire = wire
        self._real = real

    def write(self, text):
        self._wire.log(text)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

    def __getattr__(self, name):  # encoding, fileno …: as the real stdout has them
        return getattr(self._real, name)


class Job:
    """The job in hand: its `id`, its `attempt`, and a way to say how far it has got."""

    def __init__(self, wire, job_id, attempt):
        self.id = job_id
        self.attempt = attempt
        self._wire = wire
        self._lock = threading.Lock()
        self._pending = None
        self._sent_at = 0.0
        self._timer = None

    def progress(self, done, total=None, message=None):
        """`job.progress(12000, 40000, "embedding")`, or a fraction: `job.progress(0.3)`.
        As often as you like: a few a second reach Lanes, the last one always (within a
        moment, even if the job then waits on something)."""
        report = {"fraction": done} if total is None else {"done": done, "total": total}
        if message is not None:
            report["message"] = str(message)
        with self._lock:
            self._pending = report
            wait = self._sent_at + _PROGRESS_EVERY_S - time.monotonic()
            if wait > 0:
                if self._timer is None:
                    self._timer = threading.Timer(wait, self._flush)
                    self._timer.daemon = True
                    self._timer.start()
                return
        self._flush()

    def _flush(self):
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            report, self._pending = self._pending, None
            if report is None:
                return
            self._sent_at = time.monotonic()
            self._send(report)

    def _send(self, report):
        try:
            # numpy's and torch's numbers are numbers too
            for key in ("fraction", "done", "total"):
                if key in report and not isinstance(report[key], (int, float)):
                    report[key] = float(report[key])
            self._wire.send({"id": self.id, "progress": report})
        except (TypeError, ValueError):
            pass  # not progress (NaN, a string): Lanes would ignore it; it never fails the job


def _answer(wire, job, handle, payload):
    try:
        result = handle(payload, job)
        # Refused here rather than by Lanes, with words that say which value would not go.
        json.dumps(result, allow_nan=False)
    except Refuse as refused:
        job._flush()
        return {"id": job.id, "ok": False, "error": str(refused) or "refused", "retry": False}
    except Exception as error:  # one bad job must not take the worker down
        traceback.print_exc(file=sys.stderr)
        sys.stderr.flush()
        job._flush()
        return {"id": job.id, "ok": False, "error": "%s: %s" % (type(error).__name__, error)}
    job._flush()
    return {"id": job.id, "ok": True, "result": result}


def run(handle, stdin=None, stdout=None):
    """Serve jobs until Lanes closes the line: `handle(payload, job)` for each, its return value
    the job's result. Call it once your model is loaded: it tells Lanes so first."""
    source = stdin if stdin is not None else sys.stdin
    wire = _Wire(stdout if stdout is not None else sys.stdout)
    real = sys.stdout
    sys.stdout = _Printed(wire, real)
    try:
        wire.send({"ready": True})
        for line in source:
            if not line.strip():
                continue
            message = json.loads(line)
            job = Job(wire, message["id"], message.get("attempt", 1))
            wire.send(_answer(wire, job, handle, message.get("payload")))
    finally:
        sys.stdout = real
