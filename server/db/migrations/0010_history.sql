CREATE TABLE "check_results" (
	"monitor_id" integer NOT NULL,
	"t" timestamp with time zone NOT NULL,
	"level" smallint NOT NULL,
	"latency_ms" real,
	"value" double precision,
	"message" text,
	CONSTRAINT "check_results_monitor_id_t_pk" PRIMARY KEY("monitor_id","t")
);
--> statement-breakpoint
CREATE TABLE "disk_history" (
	"server_id" integer NOT NULL,
	"mountpoint" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"used_percent" real NOT NULL,
	CONSTRAINT "disk_history_server_id_mountpoint_bucket_pk" PRIMARY KEY("server_id","mountpoint","bucket")
);
--> statement-breakpoint
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
--> statement-breakpoint
CREATE TABLE "history_1h" (
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
	CONSTRAINT "history_1h_monitor_id_bucket_pk" PRIMARY KEY("monitor_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "history_5m" (
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
	CONSTRAINT "history_5m_monitor_id_bucket_pk" PRIMARY KEY("monitor_id","bucket")
);
--> statement-breakpoint
ALTER TABLE "disk_history" ADD CONSTRAINT "disk_history_server_id_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."servers"("id") ON DELETE cascade ON UPDATE no action;