"""HubSpot (``n8n-nodes-base.hubspot`` 2, 2.1, 2.2 and its ``hubspotTool``): contacts, companies, deals,
engagements, tickets and contact lists over HubSpot's API, as n8n's ``HubspotV2`` calls it."""
