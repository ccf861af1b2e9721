// The package ships no types. Shape as documented in its README: one entry per metric family; gauge, counter
// and untyped samples carry `value`, histograms and summaries carry buckets/quantiles instead.
declare module 'parse-prometheus-text-format' {
    interface PrometheusSample {
        value?: string;
        labels?: Record<string, string>;
        timestamp_ms?: string;
    }
    interface PrometheusFamily {
        name: string;
        help: string;
        type: string;
        metrics: PrometheusSample[];
    }
    export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
