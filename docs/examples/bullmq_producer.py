# Queueing work on a shared Lanes lane from your own Python program, with BullMQ's Python port
# (`pip install bullmq`), and reading each job's outcome: the same jobs as bullmq-producer.mjs,
# what docs/shared-lanes.md ("Queueing from BullMQ") describes.
#
#   REDIS_URL=redis://:PASSWORD@server:6379 LANE=render python3 bullmq_producer.py /tmp/out.txt
#
# Each job appends a line to the file given (on the machine whose engine runs it).
import asyncio
import os
import shlex
import sys

from bullmq import Job, Queue

lane = os.environ.get("LANE", "render")
out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/lanes-example.txt"


def line(text):
    return {"spec": {"kind": "shell", "script": f"echo {text} >> {shlex.quote(out)}"}}


async def finished(queue, job_id):
    # The port has no waitUntilFinished: ask for the job's state until it is completed or failed.
    while (state := await queue.getJobState(job_id)) not in ("completed", "failed"):
        await asyncio.sleep(0.2)
    return state, await Job.fromId(queue, job_id)


async def main():
    # Lanes keeps its lanes under the prefix "lanes"; the queue's name is the lane's.
    queue = Queue(lane, {"connection": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379"), "prefix": "lanes"})
    # data: {spec, timeoutMs?}. spec is what runs: {kind: "argv", argv, cwd?, env?} or
    # {kind: "shell", script, cwd?, env?} (or {kind: "payload", payload} on a worker-command lane).
    jobs = [
        await queue.add("plain", line("plain")),
        # Your own id (BullMQ's dedup): adding it again returns the job already there, which runs once.
        await queue.add("nightly", {**line("nightly"), "timeoutMs": 60_000}, {"jobId": "nightly-2026-12-02", "attempts": 3, "priority": 2}),
        await queue.add("nightly", line("nightly"), {"jobId": "nightly-2026-12-02"}),
        await queue.add("later", line("later"), {"delay": 1_500}),
        await queue.add("flaky", {"spec": {"kind": "shell", "script": f"echo flaky >> {shlex.quote(out)}; exit 3"}}, {"attempts": 2}),
    ]
    for job in jobs:
        state, done = await finished(queue, job.id)
        if state == "completed":
            # returnvalue: {lanes: 1, id, exitCode, machine} (and `result`, a worker command's answer).
            value = done.returnvalue
            print(f"{job.id}: exit {value['exitCode']}, Lanes job {value['id']} on {value['machine']}", flush=True)
        else:
            # failedReason: Lanes' words for the last attempt.
            print(f"{job.id}: failed: {done.failedReason}", flush=True)
    await queue.close()


asyncio.run(main())
