#include "gui/files/save_file.hpp"

#include <QDir>
#include <QFileInfo>
#include <QImageWriter>
#include <QObject>
#include <QSaveFile>

#include <streambuf>

namespace asyncscope {

namespace {

// A std::streambuf over a QIODevice: the engine's writers stream straight into the file being saved.
class DeviceBuffer final : public std::streambuf {
public:
    explicit DeviceBuffer(QIODevice& device)
        : m_device(device)
    {
        setp(m_buffer, m_buffer + sizeof m_buffer);
    }
    ~DeviceBuffer() override { sync(); }

protected:
    int_type overflow(int_type c) override
    {
        if (sync() != 0)
            return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override
    {
        const qint64 pending = pptr() - pbase();
        if (pending > 0 && m_device.write(pbase(), pending) != pending)
            return -1;
        setp(m_buffer, m_buffer + sizeof m_buffer);
        return 0;
    }

private:
    QIODevice& m_device;
    char m_buffer[1 << 16];
};

QString cannotOpen(const QSaveFile& file)
{
    return QObject::tr("Cannot write %1: %2. Choose a folder you may write to.")
        .arg(QDir::toNativeSeparators(file.fileName()), file.errorString());
}

QString writeFailed(const QSaveFile& file)
{
    return QObject::tr("Writing %1 failed: %2.").arg(QDir::toNativeSeparators(file.fileName()), file.errorString());
}

}  // namespace

QString saveDevice(const QString& path, const std::function<QString(QIODevice&)>& write)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return cannotOpen(file);
    if (QString failed = write(file); !failed.isEmpty()) {
        file.cancelWriting();
        return failed;
    }
    if (!file.commit())
        return writeFailed(file);
    return {};
}

QString saveStream(const QString& path, const std::function<void(std::ostream&)>& write)
{
    return saveDevice(path, [&](QIODevice& device) -> QString {
        DeviceBuffer buffer(device);
        std::ostream out(&buffer);
        write(out);
        out.flush();
        if (!out)
            return QObject::tr("Writing %1 failed: %2.")
                .arg(QDir::toNativeSeparators(path), device.errorString());
        return {};
    });
}

bool isSvgPath(const QString& path)
{
    return QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0;
}

QString pictureProblem(const QString& path, QSize pixels)
{
    if (pixels.width() < 16 || pixels.height() < 16 || pixels.width() > 16384 || pixels.height() > 16384)
        return QObject::tr("The picture size %1 x %2 is outside 16 to 16384 pixels.")
            .arg(pixels.width())
            .arg(pixels.height());
    return pictureFormatProblem(path);
}

QString pictureFormatProblem(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (!isSvgPath(path) && !QImageWriter::supportedImageFormats().contains(suffix.toLatin1()))
        return QObject::tr("Unknown picture format '%1': use .png, .jpg or .svg.").arg(suffix);
    return {};
}

}  // namespace asyncscope
