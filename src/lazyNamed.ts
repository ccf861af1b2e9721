import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * `React.lazy` for a named export: `lazyNamed(() => import('./CompanyList'), 'CompanyList')`.
 * Pages load on first visit; the layout's Suspense shows the loading state meanwhile.
 */
export function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K): LazyExoticComponent<ComponentType> {
    return lazy(async () => ({ default: (await load())[name] as unknown as ComponentType }));
}
