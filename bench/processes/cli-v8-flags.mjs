// Imported first by a gateway process of the bench: sets the V8 flags `portico` sets in its own process before it loads
// the gateway (apps/gateway/src/bin.ts), so that the gateway measured runs as `portico serve` runs it.
import { importV8Flags } from '../workspace.mjs';

(await importV8Flags()).tuneV8();
