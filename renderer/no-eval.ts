// Imported first, before anything builds a schema. The window runs under a CSP without
// 'unsafe-eval' (the daemon's and the desktop app's). Zod probes for eval (`new Function`) as
// each object schema is built, to compile faster parsers; under the CSP the probe fails
// harmlessly but is reported as a policy violation every time the window loads. With its
// compiler off, zod never probes. The window does not parse with zod on any hot path.
import { config } from 'zod';

config({ jitless: true });
