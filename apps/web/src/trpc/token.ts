/**
 * SEC-1 token bootstrap, run as an inline script before React hydrates: `npm start` prints
 * `http://127.0.0.1:3000/?token=…`. Move the token into the `seam_token` cookie (sent with every
 * tRPC request and EventSource through the same-origin proxy) and drop it from the address bar.
 */
export const TOKEN_COOKIE = "seam_token";

export const tokenBootstrapScript = `(function(){try{
var u=new URL(window.location.href);var t=u.searchParams.get("token");
if(t){document.cookie="${TOKEN_COOKIE}="+encodeURIComponent(t)+"; Path=/; SameSite=Strict; Max-Age=31536000";
u.searchParams.delete("token");var q=u.searchParams.toString();
window.history.replaceState(window.history.state,"",u.pathname+(q?"?"+q:"")+u.hash);}
}catch(e){}})();`;
