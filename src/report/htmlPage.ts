// The style and the small inline script of report.html (kept apart from the markup).
export const PAGE_CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1b1f24;background:#f6f7f9}
main{max-width:1100px;margin:0 auto;padding:16px 24px 48px}
h1{font-size:20px;margin:8px 0}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}h3{font-size:15px;margin:18px 0 6px}h4{margin:12px 0 4px;font-size:13px}h5{margin:4px 0;font-size:12px;color:#57606a}
.verdict{padding:16px 20px;border-radius:8px;margin:12px 0;color:#fff}.verdict.v-ok{background:#1a7f37}.verdict.v-partial{background:#0969da}.verdict.v-bad{background:#cf222e}.verdict.v-neutral{background:#9a6700}
.verdict .big{font-size:26px;font-weight:700;letter-spacing:.5px}.verdict .line{font-size:15px;margin:2px 0 8px}.verdict .stop{font-weight:600;margin:4px 0}
.verdict dl.scope{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:6px 0 0;font-size:13px}.verdict dt{font-weight:600;opacity:.9}.verdict dd{margin:0}
.counts{display:flex;gap:12px;flex-wrap:wrap;margin:8px 0}.counts div{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:6px 12px}.counts b{font-size:18px;display:block}.counts .c-bad b{color:#cf222e}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border:1px solid #d8dee4;padding:4px 6px;text-align:left;vertical-align:top}
table.meta{width:auto}table.meta th{background:#f6f8fa}
pre{white-space:pre-wrap;word-break:break-word;margin:0;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;max-height:320px;overflow:auto}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
details.section{margin:6px 0;background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:4px 8px}details>summary{cursor:pointer}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;color:#fff}.b-passed{background:#1a7f37}.b-failed{background:#cf222e}.b-skipped{background:#9a6700}.b-partial{background:#bc4c00}.b-unverified{background:#8250df}.b-not_run{background:#6e7781}.b-not_covered{background:#8c959f}.b-out_of_scope{background:#afb8c1}
tr.st-failed{background:#fff5f5}.small{font-size:12px;color:#57606a}.bad{color:#cf222e}.nodata{color:#57606a;font-style:italic}
ul.checks{margin:0;padding-left:18px}li.st-failed{color:#cf222e}li.st-skipped{color:#9a6700}
.failure{border:1px solid #d0d7de;border-left:4px solid #cf222e;border-radius:6px;padding:6px 12px;margin:10px 0;background:#fff}.failure h3{margin:4px 0}.failure .msg{margin:4px 0;font-weight:500}
.diff{margin:6px 0}.diff pre{background:#f6f8fa;border:1px solid #d8dee4;border-radius:4px;padding:4px 0}.diff pre>span{display:block;padding:0 8px}.d-legend{font-size:12px;margin-bottom:2px}
.d-del{background:#ffebe9;color:#82071e}.d-add{background:#dafbe1;color:#116329}.d-legend .d-del,.d-legend .d-add{padding:0 6px;border-radius:3px}.d-sign{display:inline-block;width:1.2em;user-select:none}.diff mark{background:#ffd8b5;color:inherit;border-radius:2px}
.repro{margin:8px 0}.cmd-head{display:flex;align-items:center;gap:8px;margin:2px 0}.cmd-head button{margin:0}pre.cmd{background:#0d1117;color:#e6edf3;border-radius:4px;padding:6px 10px}
ul.notes{margin:2px 0;padding-left:18px}details.steps,details.exchanges{margin:4px 0}
#filterbar{position:sticky;top:0;z-index:2;background:#f6f7f9;padding:6px 0;margin:8px 0}#filter{width:min(560px,100%);font:inherit;padding:4px 8px;border:1px solid #8c959f;border-radius:6px}
h2,h3,[id]{scroll-margin-top:56px}ul.reasons li{margin:2px 0}ul.dashboards{margin:4px 0}[hidden]{display:none!important}
.ex-grid{display:grid;grid-template-columns:1fr 1fr;gap:8px}table.hdrs th{width:30%;font-weight:500}
.legend{font-size:12px;color:#57606a;margin:2px 0 12px}
svg{background:#fff;border:1px solid #d0d7de;border-radius:6px;max-width:100%;height:auto}
svg .lbl{font-size:12px;fill:#1b1f24}svg .small{font-size:11px;fill:#57606a}
svg .bar{fill:#54aeff}svg .bar.ok{fill:#4ac26b}svg .band{fill:#dafbe1}svg .axis{stroke:#8c959f}
svg .whisker{stroke:#0969da;stroke-width:2}svg .tick{stroke:#0a3069;stroke-width:2}svg .tick-p95{stroke:#bf3989;stroke-width:3}
svg .expect{stroke:#1b1f24;stroke-dasharray:4 3}svg .dot-ok{fill:#1a7f37}svg .dot-bad{fill:#cf222e}
svg .line{fill:none;stroke-width:2}svg .s-pass{stroke:#1a7f37}svg .s-fail{stroke:#cf222e}svg .pt{stroke:none}svg .pt.s-pass{fill:#1a7f37}svg .pt.s-fail{fill:#cf222e}
svg .s-pass-t{fill:#1a7f37}svg .s-fail-t{fill:#cf222e}
svg .c0{stroke:#0969da}svg .c1{stroke:#bf3989}svg .c2{stroke:#9a6700}svg .c3{stroke:#1a7f37}svg .c4{stroke:#8250df}svg .c5{stroke:#cf222e}svg .c6{stroke:#57606a}svg .c7{stroke:#0a3069}
svg .c0-t{fill:#0969da}svg .c1-t{fill:#bf3989}svg .c2-t{fill:#9a6700}svg .c3-t{fill:#1a7f37}svg .c4-t{fill:#8250df}svg .c5-t{fill:#cf222e}svg .c6-t{fill:#57606a}svg .c7-t{fill:#0a3069}
nav a{margin-right:12px}button{font:inherit;margin:4px 8px 4px 0}
@media print{details{display:block}}
`;

// Inline script, convenience only: the report reads in full without it (its buttons and the filter box stay hidden then).
export const PAGE_JS = `(function(){
var show=function(el){el.hidden=false;};
document.querySelectorAll('button[data-toggle]').forEach(function(b){show(b);b.addEventListener('click',function(){var open=b.getAttribute('data-toggle')==='open';document.querySelectorAll('details.section').forEach(function(d){d.open=open;});});});
document.querySelectorAll('button[data-copy]').forEach(function(b){show(b);b.addEventListener('click',function(){
  var el=document.getElementById(b.getAttribute('data-copy'));if(!el)return;var text=el.textContent;
  var done=function(ok){b.textContent=ok?'copied':'selected: press Ctrl+C';setTimeout(function(){b.textContent='copy';},2500);};
  var fallback=function(){var r=document.createRange();r.selectNodeContents(el);var s=window.getSelection();s.removeAllRanges();s.addRange(r);var ok=false;try{ok=document.execCommand('copy');}catch(e){}done(ok);};
  if(navigator.clipboard&&navigator.clipboard.writeText){navigator.clipboard.writeText(text).then(function(){done(true);},fallback);}else{fallback();}
});});
var box=document.getElementById('filter'),bar=document.getElementById('filterbar'),count=document.getElementById('filter-count');
if(box&&bar){show(bar);
  var rows=Array.prototype.slice.call(document.querySelectorAll('[data-filterable]'));
  var groups=Array.prototype.slice.call(document.querySelectorAll('details[data-rows]'));
  var wasOpen=groups.map(function(d){return d.open;});
  box.addEventListener('input',function(){
    var q=box.value.trim().toLowerCase(),n=0;
    rows.forEach(function(el){var hit=!q||el.textContent.toLowerCase().indexOf(q)>=0;el.hidden=!hit;if(hit)n++;});
    groups.forEach(function(d,i){var any=!!d.querySelector('[data-filterable]:not([hidden])');d.hidden=!any;d.open=q?any:wasOpen[i];});
    count.textContent=q?(n+' of '+rows.length+' match'):'';
  });
}
})();`;
