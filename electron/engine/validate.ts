// Every request is checked against the shared contract's schema before the engine acts on it.
import { describeIssues } from '../../shared/schemas.js';
import { requests, type ParsedInput, type RequestName } from '../../shared/requests.js';
import { badRequest, notFound } from './errors.js';

export function validate<K extends RequestName>(name: K, input: unknown): ParsedInput<K> {
  const route = requests[name];
  if (!route) throw notFound(`no request named ${String(name)}`);
  const result = route.input.safeParse(input ?? {});
  if (!result.success) {
    const first = result.error.issues[0];
    throw badRequest(describeIssues(result.error), first && first.path.length ? first.path.join('.') : undefined);
  }
  return result.data as ParsedInput<K>;
}
