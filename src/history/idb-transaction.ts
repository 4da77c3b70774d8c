import { promisifyRequest, type UseStore } from 'idb-keyval';

/**
 * Runs `body` in one transaction of an idb-keyval store and resolves once it has committed.
 * If `body` throws, the transaction is aborted, so a half-done read-modify-write writes nothing.
 * `body` may await IndexedDB requests, never anything else (the transaction would auto-commit).
 */
export function transact<T>(
  store: UseStore,
  mode: IDBTransactionMode,
  body: (objectStore: IDBObjectStore) => Promise<T> | T,
): Promise<T> {
  return store(mode, async (objectStore) => {
    const transaction = objectStore.transaction;
    // Resolves on `complete`; rejects on `abort` with the reason (QuotaExceededError at commit).
    const committed = promisifyRequest(transaction);
    committed.catch(() => undefined); // awaited below, or superseded by body's error
    let result: T;
    try {
      result = await body(objectStore);
    } catch (error) {
      try {
        transaction.abort();
      } catch {
        // Already aborted by the failed request, nothing left to undo.
      }
      throw error;
    }
    await committed;
    return result;
  });
}

/** A request's result as a promise (idb-keyval's helper, typed for `unknown` storage data). */
export function request(value: IDBRequest): Promise<unknown> {
  return promisifyRequest<unknown>(value);
}
