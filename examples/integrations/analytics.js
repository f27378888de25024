/* global Response */
// Acme Analytics: reports page views of Acme's published sites to the analytics endpoint.
// The API key comes from the integration's secrets (API_KEY), never from this file.
export default {
  async fetch_published_script(event, context) {
    const key = context.environment.secrets.API_KEY;
    return new Response(
      `(function(){var s=document.createElement('script');s.async=true;` +
        `s.src='https://analytics.acme.example/a.js?key=${encodeURIComponent(key)}';` +
        `document.head.appendChild(s);})();`,
      { headers: { 'content-type': 'application/javascript' } },
    );
  },
};
