import { useCallback, useEffect, useState } from 'react';

/**
 * Code that loads apart from the page's first chunk, rendered from the loaded module rather than through React.lazy
 * and Suspense (decisions 182, 190): a lazy component suspends on its first render even when its code is already
 * here, and React 19 then holds the revealed content until 300 ms after the fallback showed. With this the page draws
 * its fallback only while the code is really missing, and the content the moment it arrives.
 */
export interface ModuleLoader<Value> {
  /** The value once loaded, else undefined. */
  current: () => Value | undefined;
  /** Starts the load (or joins the one going); a failed load is tried again on the next call. */
  start: () => Promise<Value>;
}

export function moduleLoader<Value>(load: () => Promise<Value>): ModuleLoader<Value> {
  let value: Value | undefined;
  let loading: Promise<Value> | undefined;
  return {
    current: () => value,
    start: () => {
      loading ??= load().then(
        (loadedValue) => (value = loadedValue),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
}

/** The loader's value (at once when it is already loaded), the load's failure (this loader's only), and a retry. */
export function useLoadedModule<Value>(loader: ModuleLoader<Value>): { value: Value | undefined; error: Error | null; retry: () => void } {
  const [, setLoads] = useState(0);
  const [failed, setFailed] = useState<{ loader: ModuleLoader<Value>; error: Error } | null>(null);
  const retry = useCallback(() => {
    setFailed(null);
    loader.start().then(
      () => setLoads((count) => count + 1),
      (failure: unknown) => setFailed({ loader, error: failure instanceof Error ? failure : new Error('This part of the page could not be loaded') }),
    );
  }, [loader]);
  const value = loader.current();
  useEffect(() => {
    if (loader.current() === undefined) retry();
  }, [loader, retry]);
  return { value, error: failed?.loader === loader ? failed.error : null, retry };
}
