// unpdf (Mozilla pdf.js' serverless build: no worker, no canvas) as a bundle of its own (dist/vendor/pdf.js): loaded
// by load.ts when a corpus holds a PDF (corpus/pdf.ts), so nothing else parses its 1.7 MB.
export { getResolvedPDFJS } from 'unpdf';
