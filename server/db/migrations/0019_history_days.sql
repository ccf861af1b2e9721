CREATE TABLE "history_days" (
	"monitor_id" integer NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"ok" integer NOT NULL,
	"warning" integer NOT NULL,
	"error" integer NOT NULL,
	"hours" "bytea" NOT NULL,
	"five_minutes" "bytea",
	CONSTRAINT "history_days_monitor_id_day_pk" PRIMARY KEY("monitor_id","day")
);
