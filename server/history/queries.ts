/** The history tests read uptime30d from here; its home is uptime.ts. */
export { uptime30d } from './uptime';
