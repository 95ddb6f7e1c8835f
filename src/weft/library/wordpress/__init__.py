"""WordPress (``n8n-nodes-base.wordpress`` 1 and its ``wordpressTool``): posts, pages and users over the WordPress
REST API (``<site>/wp-json/wp/v2``), with a site's Basic auth (application password) or WordPress.com OAuth2."""
