// Jobs in the window: the list follows the engine, filters by lane and state, and a job's detail
// shows what ran, how it ended and its log as it grows; cancel and retry act on the real job.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { test, expect } from './fixtures.js';

test('a job’s detail shows command, timings, attempts, exit code and a log that follows', async ({ lanes: page, daemon }) => {
  const id = (await daemon.cli('add', '--', 'sh', '-c', 'echo first line; sleep 3; echo second line')).stdout.trim();
  await page.locator(`[data-job-id="${id}"]`).click();
  const detail = page.getByTestId('job-detail');
  await expect(detail.getByRole('heading', { name: `Job ${id}` })).toBeVisible();
  await expect(detail.getByLabel('Command')).toHaveText("sh -c 'echo first line; sleep 3; echo second line'");
  const log = detail.getByTestId('log-text');
  await expect(log).toContainText('first line');
  await expect(detail.locator('.badge')).toHaveText('Running');
  // The second line is written while the job runs: the tail follows it.
  await expect(log).toContainText('second line');
  await expect(detail.locator('.badge')).toHaveText('Succeeded');
  await expect(detail).toContainText('Attempts1 of 3');
  await expect(detail).toContainText('Exit code0');
  await expect(detail).toContainText(/waited .+/);
});

test('cancel stops a running job and retry queues it again', async ({ lanes: page, daemon }) => {
  const id = (await daemon.cli('add', '--', 'sleep', '30')).stdout.trim();
  const row = page.locator(`[data-job-id="${id}"]`);
  await row.click();
  const detail = page.getByTestId('job-detail');
  await expect(detail.locator('.badge')).toHaveText('Running');
  await detail.getByRole('button', { name: 'Cancel' }).click();
  await expect(detail.locator('.badge')).toHaveText('Cancelled');
  await expect(row.locator('.badge')).toHaveText('Cancelled');
  expect((await daemon.api('job', { id: Number(id) })).state).toBe('cancelled');

  await detail.getByRole('button', { name: 'Retry' }).click();
  await expect(detail.locator('.badge')).toHaveText(/Queued|Running/);
  await expect(detail.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await detail.getByRole('button', { name: 'Cancel' }).click();
  await expect(detail.locator('.badge')).toHaveText('Cancelled');
});

test('filters by lane and state; the count and the empty state follow', async ({ lanes: page, daemon }) => {
  await daemon.cli('lane', 'add', 'thumbs', '--cap', '0');
  await daemon.cli('add', '--lane', 'thumbs', '--', 'echo', 'queued only');
  const failing = (await daemon.cli('add', '--attempts', '1', '--', 'sh', '-c', 'exit 3')).stdout.trim();
  await expect(page.locator(`[data-job-id="${failing}"] .badge`)).toHaveText('Failed');

  await page.getByLabel('State', { exact: true }).selectOption('failed');
  await expect(page.getByTestId('job-count')).toHaveText('1 job');
  await expect(page.locator('[data-job-id]')).toHaveCount(1);
  await page.locator(`[data-job-id="${failing}"]`).click();
  await expect(page.getByTestId('job-detail')).toContainText('Exit code3');

  await page.getByLabel('Lane', { exact: true }).selectOption('thumbs');
  await expect(page.getByTestId('jobs-empty')).toContainText('No jobs match this filter.');
  await page.getByLabel('State', { exact: true }).selectOption('queued');
  await expect(page.locator('[data-job-id]')).toHaveCount(1);
  await expect(page.locator('[data-job-id]')).toContainText('echo');
});

test('the list is keyboard operable', async ({ lanes: page, daemon }) => {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await daemon.cli('add', '--lane', 'ml', '--', 'echo', String(i))).stdout.trim());
  await expect(page.locator('[data-job-id]')).toHaveCount(3);
  const grid = page.getByRole('grid', { name: 'Jobs, newest first' });
  await grid.focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('job-detail').getByRole('heading', { level: 3 })).toHaveText(`Job ${ids[2]}`);
  await page.keyboard.press('End');
  await expect(page.getByTestId('job-detail').getByRole('heading', { level: 3 })).toHaveText(`Job ${ids[0]}`);
  await expect(page.locator(`[data-job-id="${ids[0]}"]`)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('job-detail')).toHaveCount(0);
});

function hasPython(): boolean {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('a persistent worker’s job shows its payload and what the worker answered', async ({ lanes: page, daemon }) => {
  test.skip(!hasPython(), 'the example worker needs python3');
  await daemon.api('addLane', { name: 'words', class: 'ml', cap: 1, workerCommand: ['python3', resolve('examples/word_stats_worker.py')] });
  const { id } = await daemon.api('addJob', { lane: 'words', payload: { text: 'the cat sat on the mat' } });
  await page.locator(`[data-job-id="${id}"]`).click();
  const detail = page.getByTestId('job-detail');
  await expect(detail.getByLabel('Payload')).toHaveText('{"text":"the cat sat on the mat"}');
  await expect(detail.locator('.badge')).toHaveText('Succeeded', { timeout: 20_000 });
  await expect(detail.locator('dd.result')).toContainText('"words":6');
});
