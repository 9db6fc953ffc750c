// Every request is checked against the contract's schema before the engine acts on it, whichever
// transport brought it: one validator, so the same bad input is refused with the same message and
// the same `field` over HTTP, IPC and in-process calls.
import { describeIssues, fieldOf, inputs } from '../../shared/schemas.js';
import { isRequestName, type ParsedInput, type RequestName } from '../../shared/requests.js';
import { badRequest, notFound } from '../../shared/errors.js';
import { unrepresentable } from '../../shared/json-limits.js';

export function validate<K extends RequestName>(name: K, input: unknown): ParsedInput<K> {
  if (!isRequestName(name)) throw notFound(`no request named ${String(name)}`);
  // Before the schema: what it cannot represent would be changed by it (a key dropped, a character replaced), not refused.
  const odd = unrepresentable(input);
  if (odd) throw badRequest(odd.path ? `${odd.path}: ${odd.problem}` : odd.problem, odd.path || undefined);
  const result = inputs[name].safeParse(input ?? {});
  if (!result.success) throw badRequest(describeIssues(result.error), fieldOf(result.error));
  return result.data as ParsedInput<K>;
}
