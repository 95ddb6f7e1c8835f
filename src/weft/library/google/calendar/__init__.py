"""Google Calendar (``n8n-nodes-base.googleCalendar`` 1–1.3 and its ``googleCalendarTool``): events (create, get,
getAll, update, delete) and a calendar's availability, over the Calendar API v3 with an OAuth2 credential."""
