import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
    plugins: [react()],
    build: { outDir: 'dist', sourcemap: false },
    server: {
        port: 5173,
        proxy: { '/api': { target: 'http://127.0.0.1:8081', ws: true }, '/config.js': 'http://127.0.0.1:8081' },
    },
});
