"""Sending mail over SMTP (nodemailer's behaviour) and n8n's mail templates."""
