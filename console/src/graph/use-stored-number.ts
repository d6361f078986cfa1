// A number setting kept in this tab's sessionStorage: the shell remounts a screen on every route
// change (#/subgraph -> #/subgraph/<id>), and the explorer's depth must survive that.
import { useState } from "preact/hooks";

export function useStoredNumber(key: string, fallback: number, min: number, max: number): [number, (value: number) => void] {
  const [value, setValue] = useState(() => {
    const stored = Number(sessionStorage.getItem(key));
    return Number.isInteger(stored) && stored >= min && stored <= max ? stored : fallback;
  });
  const store = (next: number): void => {
    const clamped = Math.min(max, Math.max(min, Math.round(Number.isFinite(next) ? next : fallback)));
    sessionStorage.setItem(key, String(clamped));
    setValue(clamped);
  };
  return [value, store];
}
