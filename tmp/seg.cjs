const u = require('usearch'); const fs=require('fs');
const mk=(d)=>new u.Index({dimensions:d,metric:'cos',quantization:'f32',connectivity:16,expansion_add:128,expansion_search:64,multi:false});
const step = process.argv[2];
const i = mk(16);
if (step==='empty') { console.log(i.search(new Float32Array(16), 3, 1)); }
if (step==='junk') { fs.writeFileSync('/tmp/junk','not an index'); try { i.load('/tmp/junk'); } catch(e) { console.log('err', e.message);} }
if (step==='dims') { const o=mk(32); o.add(1n,new Float32Array(32).fill(1)); o.save('/tmp/o.idx'); try { i.load('/tmp/o.idx'); console.log('loaded', i.dimensions()); } catch(e){console.log('err',e.message)} }
if (step==='remove') { for (let k=0;k<2000;k++) i.add(BigInt(k), Float32Array.from({length:16},()=>Math.random()-0.5)); i.remove(5n); i.remove(7n); i.add(7n, new Float32Array(16).fill(0.1)) ; console.log('ok') }
if (step==='big') { for (let k=0;k<2000;k++) i.add(BigInt(k), Float32Array.from({length:16},()=>Math.random()-0.5)); console.log(i.search(new Float32Array(16).fill(0.1), 2000, 1).keys.length) }
