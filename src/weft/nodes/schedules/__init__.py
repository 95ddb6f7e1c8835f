"""The timer triggers, as the scheduler reads them: Schedule Trigger rules, Cron trigger times and Interval
periods become cron expressions (or ``@every <seconds>``) and the item a fired trigger starts with."""
