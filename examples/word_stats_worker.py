#!/usr/bin/env python3
"""A persistent Lanes worker: load once, answer one JSON line per job.

Start-up is where a real worker would load its model (seconds, gigabytes); here it builds a
small stop-word "model" so the example runs anywhere with Python 3, then says {"ready": true}.
Each job's payload is {"text": "..."}; the answer is word statistics. See docs/worker-protocol.md.

    lanes lane add words --class ml --cap 1 --worker-command python3 examples/word_stats_worker.py
    lanes add --lane words --payload '{"text": "the cat sat on the mat"}'
"""
import collections
import json
import os
import sys
import time

STOP_WORDS = frozenset("a an and are as at be by for from in is it of on or that the to was with".split())
LOADED_AT = time.time()


def answer(job_id, ok, **fields):
    sys.stdout.write(json.dumps({"id": job_id, "ok": ok, **fields}) + "\n")
    sys.stdout.flush()


class BadPayload(ValueError):
    """The payload itself is wrong: running it again would fail the same way."""


def handle(payload):
    if not isinstance(payload, dict) or not isinstance(payload.get("text"), str):
        raise BadPayload('payload must be an object with a "text" string')
    # Test hooks, harmless in real use: a slow job and a chatty one.
    if payload.get("sleep"):
        time.sleep(float(payload["sleep"]))
    if payload.get("say"):
        print(payload["say"])  # ordinary output goes to the job's log, not the protocol
        print(payload["say"], file=sys.stderr)
    words = [w.strip(".,;:!?\"'()").lower() for w in payload["text"].split()]
    words = [w for w in words if w]
    counts = collections.Counter(w for w in words if w not in STOP_WORDS)
    return {
        "words": len(words),
        "top": counts.most_common(3),
        "pid": os.getpid(),
        "loaded_at": LOADED_AT,
    }


def main():
    # Loaded: saying so lets Lanes show the load time apart from the first job's own time.
    sys.stdout.write(json.dumps({"ready": True}) + "\n")
    sys.stdout.flush()
    for line in sys.stdin:
        job = json.loads(line)
        try:
            answer(job["id"], True, result=handle(job["payload"]))
        except BadPayload as error:  # no retry would mend it: say so, and it fails at once
            answer(job["id"], False, error=str(error), retry=False)
        except Exception as error:  # one bad job must not take the worker down; it may be retried
            answer(job["id"], False, error=str(error))


if __name__ == "__main__":
    main()
