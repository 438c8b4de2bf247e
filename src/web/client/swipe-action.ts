/* What a row's swipe does (client/swipe.ts), pure (no DOM): unit-tested under Node. */

/** How far (CSS px) a row must travel to act; less springs back. */
export const SWIPE_DISTANCE = 80;

/** What a swipe of `dx` does: 'done' to the right, 'later' to the left, null short of the distance. */
export const swipeAction = (dx: number): 'done' | 'later' | null => (dx >= SWIPE_DISTANCE ? 'done' : dx <= -SWIPE_DISTANCE ? 'later' : null);
