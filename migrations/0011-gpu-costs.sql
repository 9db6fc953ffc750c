-- What one worker of an ml lane typically holds on the GPU, measured by nvidia-smi over its
-- processes (JSON: bytes, at, rounds, as worker_cost), so that after a restart Lanes still knows
-- how many of its workers a card holds before it starts one.
ALTER TABLE lanes ADD COLUMN gpu_cost TEXT;
