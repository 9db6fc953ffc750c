// The OS light / dark setting, live: canvas drawings cannot follow CSS on their own.
import { useSyncExternalStore } from 'react';

const query = () => window.matchMedia('(prefers-color-scheme: dark)');

function subscribe(onChange: () => void): () => void {
  const mq = query();
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

export function useColorScheme(): 'light' | 'dark' {
  return useSyncExternalStore(subscribe, () => (query().matches ? 'dark' : 'light'));
}
