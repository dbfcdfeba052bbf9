/** How close to the bottom (px) still counts as "at the bottom". */
export const FOLLOW_SLACK = 24;

export interface ScrollPosition {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

/**
 * Whether a terminal block keeps following its output after a scroll event: back at the bottom it
 * follows again; a move up (the user scrolled) stops it. Growth never moves scrollTop up, so content
 * arriving between our own scroll and its event does not count as the user leaving.
 */
export function followAfterScroll(following: boolean, lastTop: number, pos: ScrollPosition): boolean {
  const distance = pos.scrollHeight - pos.scrollTop - pos.clientHeight;
  if (distance <= FOLLOW_SLACK) return true;
  if (pos.scrollTop < lastTop - 1) return false;
  return following;
}
