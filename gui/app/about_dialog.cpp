#include "gui/app/about_dialog.hpp"

#include "engine/model/cuda_versions.hpp"

#include <QApplication>
#include <QMessageBox>

namespace asyncscope {

void showAboutDialog(QWidget* parent, const Platform& platform)
{
    QMessageBox::about(parent, QObject::tr("About AsyncScope"),
        QObject::tr("<h3>AsyncScope %1</h3><p>See asynchronous CUDA execution: the asyncAPI pipeline's GPU time "
                    "(CUDA events) against its CPU submit time (host clock), run after run.</p>"
                    "<p>CUDA runtime %2 (linked statically); %3.</p>")
            .arg(QApplication::applicationVersion(), QString::fromStdString(formatCudaVersion(kBuiltCudaRuntime)),
                platform.driverVersion > 0
                    ? QObject::tr("the NVIDIA driver supports CUDA %1")
                          .arg(QString::fromStdString(formatCudaVersion(platform.driverVersion)))
                    : QObject::tr("no NVIDIA driver was found")));
}

}  // namespace asyncscope
