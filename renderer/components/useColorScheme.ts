// The OS light / dark setting, live: canvas drawings cannot follow CSS on their own.
import { useMediaQuery } from './useMediaQuery';

export function useColorScheme(): 'light' | 'dark' {
  return useMediaQuery('(prefers-color-scheme: dark)') ? 'dark' : 'light';
}
