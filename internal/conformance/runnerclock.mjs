// runnerclock.mjs shifts the compliance runner's clock (node --import) so
// that it starts at $ADCP_RUNNER_CLOCK (an ISO 8601 instant) and runs on
// from there at the real pace. The storyboards of @adcp/sdk 6.11 carry
// fixed flight dates (2026-04 to 2026-12); on a machine whose clock is past
// a step's start_time, the runner replaces that step's dates with "now + 1
// day" computed at each call, so two calls meant to be identical (an
// idempotent replay) differ by the milliseconds between them. examples/seller
// starts its clock at the same instant (-clock), so that both agree on the
// time a request signature carries.
const target = Date.parse(process.env.ADCP_RUNNER_CLOCK ?? '');
if (Number.isNaN(target)) {
  throw new Error('runnerclock.mjs: set ADCP_RUNNER_CLOCK to an ISO 8601 instant');
}
const RealDate = Date;
const offset = target - RealDate.now();
const now = () => RealDate.now() + offset;

// ShiftedDate is Date with "now" moved: new Date() and Date.now() read the
// shifted clock, Date() (called as a function) formats it; everything else,
// subclassing included, is the real Date's.
function ShiftedDate(...args) {
  if (!new.target) {
    return new RealDate(now()).toString();
  }
  return Reflect.construct(RealDate, args.length === 0 ? [now()] : args, new.target);
}
Object.setPrototypeOf(ShiftedDate, RealDate);
ShiftedDate.prototype = RealDate.prototype;
ShiftedDate.now = now;
ShiftedDate.parse = RealDate.parse;
ShiftedDate.UTC = RealDate.UTC;
globalThis.Date = ShiftedDate;
