CREATE TABLE "history_1d" (
	"monitor_id" integer NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"ok" integer NOT NULL,
	"warning" integer NOT NULL,
	"error" integer NOT NULL,
	"latency_count" integer NOT NULL,
	"latency_sum_ms" double precision NOT NULL,
	"latency_max_ms" real,
	"value_last" double precision,
	"value_min" double precision,
	"value_max" double precision,
	CONSTRAINT "history_1d_monitor_id_bucket_pk" PRIMARY KEY("monitor_id","bucket")
);
