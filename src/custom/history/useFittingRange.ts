import { useEffect, useState } from 'react';

import { fittingRange, type RangeKey } from './ranges';

/**
 * The chart's range: `preferred` until the first answer, then shortened once to fit the data it holds (oldest point
 * `oldest`), until the user picks one, which stays.
 */
export function useFittingRange(preferred: RangeKey, oldest: string | undefined): [RangeKey, (key: RangeKey) => void] {
    const [rangeKey, setRangeKey] = useState<RangeKey>(preferred);
    const [settled, setSettled] = useState(false);
    useEffect(() => {
        if (settled || oldest === undefined) return;
        setSettled(true);
        setRangeKey(fittingRange(preferred, Date.parse(oldest)));
    }, [settled, oldest, preferred]);
    const pick = (key: RangeKey) => {
        setSettled(true);
        setRangeKey(key);
    };
    return [rangeKey, pick];
}
