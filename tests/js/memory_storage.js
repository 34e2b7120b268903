/**
 * A Storage kept in memory, for the tests of modules that keep things in localStorage.
 * @returns {{getItem: Function, setItem: Function, removeItem: Function, items: Map<string, string>}}
 */
export function memoryStorage() {
  const items = new Map();
  return {
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key),
    items,
  };
}
