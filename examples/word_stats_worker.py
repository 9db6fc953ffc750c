#!/usr/bin/env python3
"""A persistent Lanes worker built with the kit in python/: load once, answer one job at a time.

Start-up is where a real worker would load its model (seconds, gigabytes); here it builds a
small stop-word "model" so the example runs anywhere with Python 3. Each job's payload is
{"text": "..."}; the answer is word statistics, and the job says how far it has got as it counts.
See docs/worker-protocol.md.

    lanes lane add words --class ml --cap 1 --worker-command python3 examples/word_stats_worker.py
    lanes add --lane words --payload '{"text": "the cat sat on the mat"}'
"""
import collections
import os
import sys
import time

try:
    import lanes_worker  # pip install ./python
except ImportError:  # run from a checkout: the kit is beside this folder
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    import lanes_worker

STOP_WORDS = frozenset("a an and are as at be by for from in is it of on or that the to was with".split())
LOADED_AT = time.time()


def handle(payload, job):
    if not isinstance(payload, dict) or not isinstance(payload.get("text"), str):
        # No retry would mend it: the job fails at once.
        raise lanes_worker.Refuse('payload must be an object with a "text" string')
    # Test hooks, harmless in real use: a slow job and a chatty one.
    if payload.get("sleep"):
        time.sleep(float(payload["sleep"]))
    if payload.get("say"):
        print(payload["say"])  # ordinary output goes to the job's log, not the protocol
        print(payload["say"], file=sys.stderr)
    raw = payload["text"].split()
    words = []
    for i, word in enumerate(raw):
        word = word.strip(".,;:!?\"'()").lower()
        if word:
            words.append(word)
        job.progress(i + 1, len(raw), "counting words")
    counts = collections.Counter(w for w in words if w not in STOP_WORDS)
    return {"words": len(words), "top": counts.most_common(3), "pid": os.getpid(), "loaded_at": LOADED_AT}


if __name__ == "__main__":
    lanes_worker.run(handle)
